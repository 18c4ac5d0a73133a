import { type Duties, defaultDuties } from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";
import { AlertEngine } from "./alerts/engine.ts";
import { ensureFirstAdmin } from "./auth/first-admin.ts";
import { loadSessionSecret } from "./auth/session-secret.ts";
import { LoginThrottle } from "./auth/throttle.ts";
import { type Bus, connectRedisBus, createInProcessBus } from "./bus/index.ts";
import type { Config } from "./config.ts";
import type { AppServices } from "./context.ts";
import type { FeedMonitor } from "./feeds/providers/monitor.ts";
import { HistoryRecorder } from "./history/recorder.ts";
import { warnEvery } from "./log.ts";
import { MarketHub } from "./market/hub.ts";
import { DeliveryCounts } from "./metrics/delivery-counts.ts";
import type { OutboxSenders } from "./outbox/outbox-sender.ts";
import { SpreadStatsService } from "./stats/spread-stats-service.ts";
import { storedCloses } from "./stats/stored-closes.ts";
import { createNotifier } from "./telegram/notifier.ts";
import { Webhooks } from "./webhooks/webhooks.ts";

export { DATABASE_FILE } from "./database.ts";

const SESSION_SWEEP_MS = 60 * 60 * 1000;

export function dutiesFrom(config: Config): Duties {
  return { ...defaultDuties(), ...config.duties };
}

/** The running parts of a server behind its HTTP port, and how to stop them in order. */
export interface Services extends AppServices {
  /** The leader's outbox senders (Telegram, webhooks) while this instance leads (new per term). */
  sender: OutboxSenders | undefined;
  /** What every term's senders delivered, for /metrics. */
  deliveries: DeliveryCounts;
  stop(): Promise<void>;
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

/**
 * Takes the opened database (closed here should the start fail), opens the bus, makes the first admin if needed, feeds the hub from the bus
 * and starts the session sweeper. The leader's work (feeds, recorder, engine, sender) is
 * LeaderRole's.
 */
export async function startServices(
  config: Config,
  log: (text: string) => void,
  feedMonitor: FeedMonitor,
  store: Store,
): Promise<Services> {
  try {
    await ensureFirstAdmin(
      store,
      { username: config.adminUsername, password: config.adminPassword },
      log,
    );
  } catch (error) {
    await store.close();
    throw error;
  }
  const hub = new MarketHub(dutiesFrom(config), config.costRates);
  const shutdown = new AbortController();
  const notifier = createNotifier(config.telegram);
  let bus: Bus;
  try {
    bus = config.redisUrl ? await connectRedisBus({ url: config.redisUrl }) : createInProcessBus();
  } catch (error) {
    await store.close();
    throw error;
  }
  // Every instance's hub takes its quotes from the bus; only the leader's feeds publish them.
  bus.subscribe("quote", (quote) => {
    if (hub.ingest(quote)) feedMonitor.accepted(quote);
  });
  const stats = new SpreadStatsService(storedCloses(store, () => recorder.writePending()));
  const alertEngine = new AlertEngine(store, hub, () => services.sender?.wake(), bus, {
    metrics: stats,
    legs: { silenceMs: config.feedSilenceMs, providers: () => feedMonitor.report().providers },
  });
  const recorder = new HistoryRecorder(store, hub, config.historyRetentionMs, (symbol, c) =>
    stats.minuteClosed(symbol, c.timestamp, c.close),
  );
  const services: Services = {
    hub,
    store,
    bus,
    instance: { id: config.instanceId, isLeader: () => false },
    auth: {
      password: loadSessionSecret(config.dataDir, config.sessionSecret),
      cookieSecure: config.cookieSecure,
      idleMs: config.sessionIdleMs,
    },
    loginThrottle: new LoginThrottle(store),
    alertEngine,
    recorder,
    stats,
    notifier,
    webhooks: new Webhooks(config.webhookAllowPrivate),
    sender: undefined,
    deliveries: new DeliveryCounts(),
    shutdownSignal: shutdown.signal,
    health: { feeds: () => feedMonitor.report(), startedAt: Date.now() },
    kite: config.kite,
    /** After the leader's work has stopped (LeaderRole.end). */
    async stop() {
      clearInterval(sweeper);
      shutdown.abort();
      await bus.close();
    },
  };
  await sweepSessions(services);
  const sweeper = setInterval(() => void sweepSessionsInBackground(services), SESSION_SWEEP_MS);
  sweeper.unref();
  return services;
}
