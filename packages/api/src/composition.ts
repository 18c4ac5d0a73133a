// The composition root: builds every running part of a server in dependency order (build), wires
// what every instance listens to (wireEveryInstance) and what only the leader does while it leads
// (leaderWorkOf). Nothing subscribes itself in a constructor: each subscription is one line here,
// and each is an arrow of the flow diagram in docs/architecture.md ("One file shows the flows").
import { type Duties, defaultDuties, groupOfExchange } from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";
import { AlertEngine } from "./alerts/engine.ts";
import { ensureFirstAdmin } from "./auth/first-admin.ts";
import { unknownUserHash } from "./auth/passwords.ts";
import { loadSessionSecret } from "./auth/session-secret.ts";
import { LoginThrottle } from "./auth/throttle.ts";
import { type Bus, connectRedisBus, createInProcessBus } from "./bus/index.ts";
import type { Config } from "./config/index.ts";
import type { AppServices } from "./context.ts";
import { ExecutionEngine } from "./executions/engine.ts";
import { KiteLinks } from "./executions/kite-link.ts";
import { LiveOrders } from "./executions/live-orders.ts";
import { livePositionFields } from "./executions/live-position.ts";
import { alertNakedLeg } from "./executions/naked-alert.ts";
import { OrderRate } from "./executions/order-rate.ts";
import { KiteSessionReminders } from "./executions/session-reminder.ts";
import type { Feed } from "./feeds/feed.ts";
import { loadMarketDataConfig } from "./feeds/providers/config-file.ts";
import { kiteSessionsIn } from "./feeds/providers/kite/session.ts";
import type { FeedMonitor } from "./feeds/providers/monitor.ts";
import { allSinks, contractCandleSink, instrumentCandleSink } from "./history/candle-sink.ts";
import { historyCoverage, historyHealth, historyLoading } from "./history/coverage.ts";
import { FirstStartBackfill } from "./history/first-start.ts";
import { LegHistoryBackfill } from "./history/leg-backfill.ts";
import { ProviderHistory } from "./history/provider-history.ts";
import { HistoryRecorder } from "./history/recorder.ts";
import { fillSpreadPast } from "./history/spread-past.ts";
import { InstrumentCatalogue } from "./instruments/catalogue.ts";
import { RollRecorder } from "./instruments/roll-recorder.ts";
import type { LeaderWork } from "./leader/leader-role.ts";
import { log, warnEvery } from "./log.ts";
import { DEFINITION_EVERY_MS, MarketHub } from "./market/hub.ts";
import { DeliveryCounts } from "./metrics/delivery-counts.ts";
import { type ChannelDelivery, OutboxSender, OutboxSenders } from "./outbound/outbox-sender.ts";
import { serverMarginSource } from "./positions/margin-source.ts";
import { storedPositionAlerts } from "./positions/position-alert-source.ts";
import { PositionAlerts } from "./positions/position-alerts.ts";
import { liveCostsPerLot } from "./positions/position-net.ts";
import { PositionsService } from "./positions/service.ts";
import { SNAPSHOT_MIN_INTERVAL_MS } from "./routers/market.ts";
import { builtInDefinitions } from "./spreads/built-ins.ts";
import { SpreadRegistry } from "./spreads/registry.ts";
import { legInstrumentKnown, storedDefinitions } from "./spreads/stored.ts";
import { ContractCloses } from "./stats/contract-closes.ts";
import { definitionContractCloses } from "./stats/definition-contract-closes.ts";
import { SpreadStatsService } from "./stats/spread-stats-service.ts";
import { definitionCloses, storedCloses } from "./stats/stored-closes.ts";
import { StreamFanout } from "./stream/stream-fanout.ts";
import { createNotifier } from "./telegram/notifier.ts";
import { TelegramDelivery } from "./telegram/telegram-delivery.ts";
import { SSE_PING_INTERVAL_MS, SSE_RECONNECT_AFTER_INACTIVITY_MS } from "./trpc.ts";
import { WebhookDelivery } from "./webhooks/webhook-delivery.ts";
import { Webhooks } from "./webhooks/webhooks.ts";

export { DATABASE_FILE } from "./database.ts";

const SESSION_SWEEP_MS = 60 * 60 * 1000;
/** How often the leader tells the others its providers' health (see FeedMonitor). */
const FEED_HEALTH_INTERVAL_MS = 5_000;
/** Who claims outbox rows; one process on its own file keeps one name across restarts. */
const EMBEDDED_INSTANCE_ID = "embedded";

export function dutiesFrom(config: Config): Duties {
  return { ...defaultDuties(), ...config.duties };
}

/** The running parts of a server behind its HTTP port. */
export interface Services extends AppServices {
  /** The leader's outbox senders (Telegram, webhooks) while this instance leads (new per term). */
  readonly sender: OutboxSenders | undefined;
  /** What every term's senders delivered, for /metrics. */
  deliveries: DeliveryCounts;
  /** The leader's record of contract rolls. */
  rolls: RollRecorder;
  /** The leader's watch of positions' targets and stops. */
  positionAlerts: PositionAlerts;
  /** Live-order campaigns: started and stopped with the leader's work. */
  executions: ExecutionEngine;
}

/** A composed server: its services, its stream, the leader's work, and how to stop them. */
export interface Composition {
  services: Services;
  snapshots: StreamFanout;
  /** Started and stopped by LeaderRole as leadership comes and goes. */
  leaderWork: LeaderWork;
  /** After the leader's work has stopped: the stream, the sweeper, the bus. */
  stop(): Promise<void>;
}

/** What a server is composed of: its config, the opened store, its feed and the feed's monitor. */
export interface ComposeOptions {
  config: Config;
  /** Closed here should the start fail. */
  store: Store;
  feed: Feed;
  monitor: FeedMonitor;
  /** Start-up messages meant for a person (the first admin's password, the backfill). */
  notice: (text: string) => void;
}

/**
 * The leader's fetch of the providers' past: candles go to the legs' store, then the built-in
 * spreads' chart candles are made of them, then every instance's statistics read them again.
 */
function startProviderHistory(
  config: Config,
  services: Services,
  inUse: () => ReturnType<InstrumentCatalogue["inUse"]>,
): ProviderHistory {
  const { store, bus, spreads, recorder } = services;
  const days = config.historyFetch.days;
  const fetcher = new ProviderHistory({
    store,
    sink: allSinks(contractCandleSink(store), instrumentCandleSink(store)),
    market: loadMarketDataConfig(config.marketDataConfig),
    kite: config.kite,
    sessions: kiteSessionsIn(store),
    days,
    timeoutMs: config.historyFetch.timeoutMs,
    checkMs: config.historyFetch.checkMs,
    async onFetched(keys) {
      await recorder.writePending();
      const to = Math.floor(Date.now() / 60_000) * 60_000;
      await fillSpreadPast(store, spreads.all(), keys, to - days * 86_400_000, to);
      bus.publish("history.added", { keys: [...keys] });
    },
  });
  fetcher.start(inUse);
  return fetcher;
}

/** `read`'s answer, shared by every caller within `ms` of the read that made it. */
function fresh<T>(ms: number, read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= ms) {
      const value = read();
      last = { at: now, value };
      value.catch(() => {
        if (last?.value === value) last = undefined;
      });
    }
    return last.value;
  };
}

/** One outbox sender per channel (webhooks always; Telegram when a bot token is set). */
function startSenders(config: Config, services: Services): OutboxSenders {
  const id = config.databaseUrl ? config.instanceId : EMBEDDED_INSTANCE_ID;
  const channels: ChannelDelivery[] = [new WebhookDelivery(services.store, services.webhooks)];
  if (services.notifier) channels.push(new TelegramDelivery(services.notifier));
  const senders = new OutboxSenders(
    channels.map(
      (channel) => new OutboxSender(services.store, services.deliveries.counting(channel), id),
    ),
  );
  senders.start();
  return senders;
}

/** A failed reload (database busy) is logged; the next change or bus reconnect retries. */
async function reloadInstruments(instruments: InstrumentCatalogue): Promise<void> {
  try {
    await instruments.reload();
  } catch (error) {
    warnEvery("instruments-reload", 60_000, { err: error }, "could not reload the instruments");
  }
}

/** As reloadInstruments: the next change or bus reconnect retries. */
async function reloadSpreads(spreads: SpreadRegistry): Promise<void> {
  try {
    await spreads.reload();
  } catch (error) {
    warnEvery("spreads-reload", 60_000, { err: error }, "could not reload the spread definitions");
  }
}

/** As reloadInstruments: the next change or bus reconnect retries. */
async function reloadPositions(positions: PositionsService): Promise<void> {
  try {
    await positions.load();
  } catch (error) {
    warnEvery("positions-reload", 60_000, { err: error }, "could not load the open positions");
  }
}

/** Ends idle sessions and forgets old end reasons. */
async function sweepSessions(services: AppServices): Promise<void> {
  const now = Date.now();
  await services.store.sessions.endIdleSince(now - services.auth.idleMs, now);
  await services.store.sessions.pruneEnds(now - services.auth.idleMs);
}

/** The hourly sweep failing (database busy) must not crash the server; the next one retries. */
async function sweepSessionsInBackground(services: AppServices): Promise<void> {
  try {
    await sweepSessions(services);
  } catch (error) {
    warnEvery("session-sweep", 60 * 60 * 1000, { err: error }, "could not sweep idle sessions");
  }
}

/** Every part built, none yet listening to another. */
interface Parts {
  services: Services;
  snapshots: StreamFanout;
  /** The leader's senders of the current term (the alert engines wake them). */
  senders: LeaderSenders;
  shutdown: AbortController;
}

/** The outbox senders of this instance's current term as leader; none while it follows. */
class LeaderSenders {
  current: OutboxSenders | undefined;
  readonly wake = (): void => this.current?.wake();
}

/** Builds every part, in dependency order: each is made of parts built before it. */
async function build({ config, store, monitor, notice }: ComposeOptions): Promise<Parts> {
  const duties = dutiesFrom(config);
  const instruments = new InstrumentCatalogue(store);
  const spreads = new SpreadRegistry({
    builtIns: builtInDefinitions(duties),
    load: storedDefinitions(store),
    knows: legInstrumentKnown(instruments),
  });
  let bus: Bus;
  try {
    await ensureFirstAdmin(
      store,
      {
        username: config.adminUsername,
        password: config.adminPassword,
        passwordCost: config.passwordCost,
      },
      notice,
    );
    await instruments.reload();
    await spreads.reload();
    bus = config.redisUrl ? await connectRedisBus({ url: config.redisUrl }) : createInProcessBus();
  } catch (error) {
    await store.close();
    throw error;
  }
  const hub = new MarketHub(
    duties,
    config.costRates,
    (source, key) => instruments.accepts(source, key),
    spreads,
    { definitionEveryMs: DEFINITION_EVERY_MS, specOf: (key) => instruments.get(key) },
  );
  const recorder = new HistoryRecorder(store, config.historyRetentionMs, spreads);
  const flush = () => recorder.writePending();
  // Statistics of the contracts the legs quote now (docs/history.md); recorded spread closes
  // only where a leg's contract has no stored past.
  const contractCloses = new ContractCloses({
    store,
    duties,
    contractNow: (key) => hub.snapshot().prices.contracts?.[key]?.contract,
    flush,
    fallback: storedCloses(store, flush),
  });
  // Users' own spreads from their legs' contracts too; per-key leg history where none names one.
  const ownCloses = definitionContractCloses({
    store,
    spreads,
    contractNow: (key) => hub.snapshot().prices.contracts?.[key]?.contract,
    flush,
    fallback: definitionCloses(store, spreads, flush),
  });
  const stats = new SpreadStatsService(
    contractCloses.closes,
    { spreads, closes: ownCloses.closes, contractsOf: ownCloses.contractsOf },
    (symbol) => contractCloses.contractsOf(symbol),
  );
  const rolls = new RollRecorder(store, (key) => {
    stats.contractRolled(new Set([key]));
    bus.publish("contract.rolled", { instanceId: config.instanceId, keys: [key] });
  });
  const senders = new LeaderSenders();
  const alertEngine = new AlertEngine(store, hub, senders.wake, {
    spreads,
    metrics: stats,
    legs: { silenceMs: config.feedSilenceMs, providers: () => monitor.report().providers },
  });
  const snapshots = new StreamFanout(hub, {
    processes: config.streamProcesses,
    minIntervalMs: SNAPSHOT_MIN_INTERVAL_MS,
    pingIntervalMs: SSE_PING_INTERVAL_MS,
    reconnectAfterInactivityMs: SSE_RECONNECT_AFTER_INACTIVITY_MS,
    limitPerAddress: config.streamLimitPerAddress,
    trustedProxies: config.trustedProxies,
    blockedDropAfterMs: config.streamBlockedDropMs,
  });
  const positions = new PositionsService({
    store,
    hub,
    spreads,
    instruments,
    bus,
    costRates: () => hub.costRates,
  });
  // MARGIN_* rates, and Kite's own figures for the MCX legs while an admin's login is current.
  positions.setMarginSource(serverMarginSource(config, store, positions.specOf));
  // Leader only: positions' targets and stops, held on the alert engine's stale legs.
  const positionAlerts = new PositionAlerts(store, storedPositionAlerts(store), {
    legs: alertEngine,
    costs: liveCostsPerLot(
      spreads,
      (key) => instruments.get(key),
      () => hub.costRates,
    ),
    onQueued: senders.wake,
    nameOf: (symbol) => {
      const spread = spreads.bySymbolName(symbol);
      return spread && !spread.builtin ? spread.name : undefined;
    },
  });
  const sessionPassword = loadSessionSecret(config.dataDir, config.sessionSecret);
  // Leader only: live-order campaigns through each trader's own Kite.
  const links = new KiteLinks(store, sessionPassword);
  const executions = new ExecutionEngine({
    store,
    hub,
    kite: config.kite,
    links,
    reminders: new KiteSessionReminders(store, links, senders.wake),
    liveOrders: new LiveOrders(store),
    rate: new OrderRate(),
    onAlert: (row, doc, text) => alertNakedLeg(store, row, doc, text, Date.now(), senders.wake),
    onSettled: async (row, doc) => {
      const fields = livePositionFields(positions, spreads, row, doc, Date.now());
      if (!fields) return;
      const into = doc.ticket.positionId;
      if (into === undefined) await store.positions.openLive(row.ownerId, fields);
      else {
        // Opposite-side lots close at the campaign's spread, costs at its real leg fills.
        const exitLegs = Object.fromEntries(
          Object.entries(fields.legs).map(([name, leg]) => [name, leg.price]),
        );
        const realise = positions.realiser(spreads.bySymbolName(row.spread), exitLegs);
        await store.positions.applyLive(row.ownerId, into, fields, realise);
      }
      positions.announce(row.ownerId);
    },
  });
  const shutdown = new AbortController();
  // Made now, in the thread pool, so that the first login with an unknown name is not the one
  // that waits for it (and by taking twice as long, tells the name is unknown).
  void unknownUserHash(config.passwordCost);
  const services: Services = {
    hub,
    instruments,
    spreads,
    positions,
    store,
    bus,
    instance: { id: config.instanceId, isLeader: () => false },
    auth: {
      password: sessionPassword,
      passwordCost: config.passwordCost,
      cookieSecure: config.cookieSecure,
      idleMs: config.sessionIdleMs,
    },
    loginThrottle: new LoginThrottle(store),
    alertEngine,
    recorder,
    stats,
    notifier: createNotifier(config.telegram),
    webhooks: new Webhooks(config.webhookAllowPrivate),
    get sender() {
      return senders.current;
    },
    deliveries: new DeliveryCounts(),
    rolls,
    positionAlerts,
    shutdownSignal: shutdown.signal,
    health: { feeds: () => monitor.report(), startedAt: Date.now() },
    history: {
      // Read at most every 2 s however many admins watch Admin → Data: it walks weeks of minutes.
      coverage: fresh(2_000, () =>
        historyCoverage(instruments.inUse(), {
          store,
          days: config.historyFetch.days,
          feed: config.feed,
        }),
      ),
      health: () =>
        historyHealth(
          instruments.inUse().map((s) => s.key),
          store,
        ),
      // Asked by every statistics poll of every tab: read at most once a second.
      loading: fresh(1_000, () =>
        historyLoading(
          instruments.inUse().map((s) => s.key),
          store,
        ),
      ),
      fetchAgain: async (keys) => bus.publish("history.fetch", { keys }),
    },
    kite: config.kite,
    executions,
  };
  return { services, snapshots, senders, shutdown };
}

/**
 * What every instance listens to, for as long as it runs: the bus feeds the hub (only the
 * leader's feed publishes quotes) and the hub feeds the stream every browser reads; the
 * catalogue, the registry and the positions index follow the store.
 */
function wireEveryInstance({ services, snapshots }: Parts, { config, monitor }: ComposeOptions) {
  const { bus, hub, instruments, spreads, positions, stats, recorder } = services;
  bus.subscribe("quote", (quote) => {
    if (hub.ingest(quote)) monitor.accepted(quote);
  });
  // An instance that does not lead reports the leader's providers (its own feed is idle).
  monitor.following = () => !services.instance.isLeader();
  bus.subscribe("feed.health", ({ instanceId, providers }) => {
    if (instanceId !== config.instanceId) monitor.leaderProviders(providers);
  });
  hub.subscribe((update) => snapshots.onUpdate(update));
  // A changed or deleted definition's statistics are read again; then the hub recomputes it and
  // the stream sends the result.
  spreads.subscribe((change) => stats.spreadsChanged(change));
  spreads.subscribe((change) => snapshots.recomputed(hub.spreadsChanged(change)));
  // The recorder runs on the leader only; its closed minutes keep the statistics current.
  recorder.onMinuteClosed((symbol, candle) =>
    stats.minuteClosed(symbol, candle.timestamp, candle.close),
  );
  // The instruments in use follow the store. A removed key's price leaves the hub and every
  // open browser; a missed message (the bus was down) is made up on reconnect.
  bus.subscribe("instruments.changed", () => void reloadInstruments(instruments));
  bus.onState((state) => state === "connected" && void reloadInstruments(instruments));
  instruments.onChange(({ removed }) => {
    for (const spec of removed) {
      const source = groupOfExchange(spec.exchange);
      if (!instruments.accepts(source, spec.key) && hub.forget(source, spec.key))
        snapshots.forgot(source);
    }
  });
  // The spread definitions follow the store the same way.
  bus.subscribe("spreads.changed", () => void reloadSpreads(spreads));
  bus.onState((state) => state === "connected" && void reloadSpreads(spreads));
  // Instruments got a past (the leader's leg backfill): statistics loaded before it are read again.
  bus.subscribe("history.added", ({ keys }) => stats.legHistoryAdded(new Set(keys)));
  // Every other instance: the leader's roll recorder saw a roll (it reloaded its own at once).
  bus.subscribe("contract.rolled", ({ instanceId, keys }) => {
    if (instanceId !== config.instanceId) stats.contractRolled(new Set(keys));
  });
  // Each user's open positions follow the store (the index position alerts read), and their
  // open Positions tabs hear to refetch.
  bus.subscribe("positions.changed", ({ userId }) => void positions.ownerChanged(userId));
  // A campaign made on any instance: the leader's engine looks now (a follower's is not running).
  bus.subscribe("executions.changed", () => services.executions.wake());
  bus.onState((state) => state === "connected" && void reloadPositions(positions));
}

/**
 * The leader's work, started and stopped by LeaderRole as leadership comes and goes. In this
 * order: history first (a first start's statistics include the backfill), then the engines, the
 * senders, and last the feed, so no quote arrives before its listeners. Every listener it adds
 * is removed when the term ends.
 */
function leaderWorkOf(
  { services, senders }: Parts,
  { config, store, feed, monitor, notice }: ComposeOptions,
): LeaderWork {
  const { bus, hub, instruments, spreads, positions, recorder, stats, rolls } = services;
  const { alertEngine, positionAlerts, executions } = services;
  let leaderListeners: Array<() => void> = [];
  let legHistory: LegHistoryBackfill | undefined;
  let firstStart: FirstStartBackfill | undefined;
  let providerHistory: ProviderHistory | undefined;
  return {
    async start() {
      // The feed learns the instruments in use before its history and its start, and again on
      // every change while this instance leads.
      const quoteInstruments = () => feed.setInstruments?.(instruments.inUse());
      leaderListeners.push(instruments.onChange(quoteInstruments));
      quoteInstruments();
      rolls.reset();
      // A first start's month of past is made after the server listens, in slices
      // (docs/history.md, "The first start"); the rest of the leader's work starts at once.
      const inUseAtStart = instruments.inUse();
      firstStart = new FirstStartBackfill({
        store,
        history: feed.history?.bind(feed),
        duties: dutiesFrom(config),
        inUse: new Set(inUseAtStart.map((spec) => spec.key)),
        notice,
        retentionMs: config.historyRetentionMs,
      });
      const backfilling = await firstStart.due();
      // An instrument put in use from now on (or earlier, without a past) gets its past.
      legHistory = new LegHistoryBackfill(store, feed.historyOf?.bind(feed), {
        retentionMs: config.historyRetentionMs,
        // Every instance's statistics re-read the spreads on them (this one's too, by the bus).
        onFilled: (keys) => bus.publish("history.added", { keys: [...keys] }),
      });
      const filling = legHistory;
      leaderListeners.push(instruments.onChange(({ added }) => void filling.fill(added)));
      // FEED=composite: the providers' past of every instrument in use, in the background.
      if (config.feed === "composite") {
        const fetcher = startProviderHistory(config, services, () => instruments.inUse());
        providerHistory = fetcher;
        leaderListeners.push(
          instruments.onChange(({ added }) => fetcher.fetch(added.map((s) => s.key))),
          bus.subscribe("history.fetch", ({ keys }) => fetcher.fetch(keys ?? undefined, true)),
        );
      }
      // The recorder and the engine apply the registry's changes from their start on (each
      // reads the whole registry as it starts).
      leaderListeners.push(
        spreads.subscribe((change) => recorder.spreadsChanged(change)),
        spreads.subscribe((change) => alertEngine.spreadsChanged(change)),
      );
      // Before the engine reads the watched alerts in: a change another instance publishes while
      // this one starts is queued behind that read (AlertEngine.start), not lost.
      leaderListeners.push(
        bus.subscribe("alerts.changed", ({ userId }) => alertEngine.alertsChanged(userId)),
      );
      await recorder.start();
      await stats.start();
      await alertEngine.start();
      await positionAlerts.start();
      // Reconciles every open campaign with Kite's orderbook before it sends anything.
      await executions.start();
      // Rolls are recorded once the backfill is in: it records the rolls it crosses in time
      // order, and a live quote's contract stored first would be taken for the last one and turn
      // them into rolls back. In this place still, so a live roll reloads the statistics before
      // the alert engine hears its quote.
      let recordingRolls = !backfilling;
      leaderListeners.push(
        hub.subscribe((update) => recorder.onUpdate(update)),
        hub.subscribe((update) => {
          if (recordingRolls) rolls.onUpdate(update);
        }),
        hub.subscribe((update) => alertEngine.onUpdate(update)),
        // After the engine: its LegWatch has seen the quote arrive.
        hub.subscribe((update) => positionAlerts.onUpdate(update)),
        positions.onChange((userId) => positionAlerts.positionsChanged(userId)),
        spreads.subscribe((change) => positionAlerts.spreadsChanged(change)),
        bus.onState((state) => state === "connected" && positionAlerts.busReconnected()),
        bus.onState((state) => state === "connected" && alertEngine.busReconnected()),
      );
      senders.current = startSenders(config, services);
      await feed.start((quote) => bus.publish("quote", quote));
      const tellHealth = () =>
        bus.publish("feed.health", {
          instanceId: config.instanceId,
          providers: monitor.report().providers,
        });
      tellHealth();
      const healthTimer = setInterval(tellHealth, FEED_HEALTH_INTERVAL_MS);
      healthTimer.unref();
      leaderListeners.push(() => clearInterval(healthTimer));
      const term = leaderListeners;
      const backfill = firstStart;
      void backfill.run().then(async (done) => {
        // Stepped down meanwhile: the next term starts its own.
        if (leaderListeners !== term) return;
        // A 5-minute or hour candle spanning the start, closed before the past under it was
        // stored, is made again from both parts' minutes (docs/history.md, "The first start").
        const startMinute = done ? await backfill.startMinute() : undefined;
        if (startMinute !== undefined)
          await recorder
            .pastStored(startMinute)
            .catch((error) =>
              log.warn({ err: error }, "could not remake the candles at the start"),
            );
        if (leaderListeners !== term) return;
        recordingRolls = true;
        // Every instance's statistics read the month in (docs/history.md, "The first start").
        if (done) bus.publish("history.added", { keys: inUseAtStart.map((spec) => spec.key) });
        void filling.fill(instruments.inUse());
      });
    },
    async stop() {
      await firstStart?.stop();
      await feed.stop();
      for (const stopListening of leaderListeners) stopListening();
      leaderListeners = [];
      await legHistory?.stop();
      await providerHistory?.stop();
      providerHistory = undefined;
      await alertEngine.stop();
      await positionAlerts.stop();
      await executions.stop();
      await recorder.stop();
      await rolls.idle();
      await senders.current?.stop();
    },
  };
}

/**
 * Builds every part on the opened store, wires what every instance listens to, and returns the
 * leader's work for LeaderRole to start and stop. The flows are drawn in docs/architecture.md
 * ("One file shows the flows"): each arrow there is one line of `wireEveryInstance` or
 * `leaderWorkOf`.
 */
export async function compose(options: ComposeOptions): Promise<Composition> {
  const parts = await build(options);
  wireEveryInstance(parts, options);
  const leaderWork = leaderWorkOf(parts, options);
  const { services, snapshots, shutdown } = parts;
  await reloadPositions(services.positions);
  await sweepSessions(services);
  const sweeper = setInterval(() => void sweepSessionsInBackground(services), SESSION_SWEEP_MS);
  sweeper.unref();
  return {
    services,
    snapshots,
    leaderWork,
    async stop() {
      snapshots.close();
      clearInterval(sweeper);
      shutdown.abort();
      await services.bus.close();
    },
  };
}
