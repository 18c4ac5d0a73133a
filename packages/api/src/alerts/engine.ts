import {
  type AlertMetric,
  armedAtStart,
  hysteresisOf,
  isAlertMetric,
  observeCrossing,
  type Prices,
  SPREAD_SYMBOLS,
  type ThresholdSide,
  thresholdSide,
} from "@spreadwatch/core";
import type {
  AlertFiring,
  Crossing,
  HeldCrossing,
  SpreadMark,
  Store,
  WatchedAlert,
} from "@spreadwatch/db";
import { log, warnEvery } from "../log.ts";
import type { HubUpdate, MarketHub } from "../market/hub.ts";
import type { SpreadChange, SpreadRegistry } from "../spreads/registry.ts";
import type { LiveMetric } from "../stats/spread-stats-service.ts";
import { spreadFiringPayload } from "./firing-payload.ts";
import { LegWatch, type LegWatchOptions } from "./leg-watch.ts";
import { markKey } from "./metric-marks.ts";
import { ThresholdIndex, type WatchEntry } from "./threshold-index.ts";
import {
  isBuiltIn,
  type MetricKeys,
  type SymbolChange,
  spreadIn,
  WatchedSymbols,
} from "./watched-symbols.ts";

/** How often the last values are stored when nothing fires (a firing stores them with it). */
const MARK_SAVE_INTERVAL_MS = 1_000;

/** Where the live z-score and percentile come from (the leader's SpreadStatsService). */
export interface MetricSource {
  /** `metric` of `symbol` with the live spread `spread`; undefined without statistics. */
  liveMetric(symbol: string, metric: LiveMetric, spread: number): number | undefined;
}

export interface AlertEngineOptions {
  /** Without it zscore and percentile alerts have no value and never fire. */
  metrics?: MetricSource;
  /** How legs are judged stale (FEED_SILENCE_SECONDS, the feed's providers). */
  legs?: LegWatchOptions;
  /**
   * The spread definitions: alerts on their symbols (SP7_BUY) are watched while the definition
   * exists and its owner can see it. Without it, only the built-in symbols are watched.
   */
  spreads?: SpreadRegistry;
}

interface Firing {
  symbol: string;
  metric: AlertMetric;
  index: ThresholdIndex;
  entry: WatchEntry;
  side: ThresholdSide;
  value: number;
  spread: number;
  /** The entry's state before this firing, restored if the store writes nothing. */
  before: { lastFiredAt: number | undefined; side: ThresholdSide | undefined; armed: boolean };
}

/** The metric an alert watches; an unknown stored value is the spread (the spec's alert). */
function metricOf(alert: WatchedAlert): AlertMetric {
  return isAlertMetric(alert.metric) ? alert.metric : "spread";
}

function sideOf(value: string | null): ThresholdSide | undefined {
  return value === "above" || value === "below" ? value : undefined;
}

/**
 * Evaluates server alerts (Telegram and webhook), so they fire with no browser open. It is the
 * only writer of server firing counts and the only producer of their messages (through the
 * outbox). Each alert compares its threshold with its metric — the spread, or its live z-score or
 * percentile in the 20-day window — with one ThresholdIndex and one stored last value per
 * (symbol, metric). Times are the quotes' own, so a replay fires at the same moments every run.
 */
export class AlertEngine {
  private readonly indexes = new Map<string, ThresholdIndex>(
    SPREAD_SYMBOLS.map((s) => [markKey(s, "spread"), new ThresholdIndex()]),
  );
  private readonly symbols: WatchedSymbols;
  /** Between start and stop: the registry's changes are applied (the composition root hands them over). */
  private following = false;
  /**
   * The last trusted value per (symbol, metric), keyed by markKey: every watched alert's side is
   * derived from it. A held update (stale leg) does not move it, so the crossing is judged again
   * from here on fresh prices.
   */
  private readonly lastValue = new Map<string, SpreadMark>();
  /** Keys whose last value changed since it was last stored. */
  private readonly unsavedMarks = new Set<string>();
  /** Per symbol held now: the alerts whose held crossing is already in the History. */
  private readonly heldNoted = new Map<string, Set<number>>();
  private readonly legs: LegWatch;
  /**
   * Every write, in quote order: a quote's firings are one transaction, and the next quote's
   * only start after it, so two quotes' writes never interleave.
   */
  private writes: Promise<void> = Promise.resolve();
  private markSaver: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    private readonly hub: MarketHub,
    /** Called after firings were queued, to wake the outbox senders. */
    private readonly onQueued: () => void,
    private readonly options: AlertEngineOptions = {},
  ) {
    this.legs = new LegWatch(options.legs ?? { silenceMs: 10_000 });
    this.symbols = new WatchedSymbols(options.spreads, this.legs);
  }

  /**
   * Starts from the stored last values (a previous leader's), so a crossing it already fired is
   * not fired again and one that happened between its last quote and ours is not lost; a spread
   * never stored starts from the hub's current spread. An alert with hysteresis is armed iff its
   * metric's stored value is already past its re-arm level (see hysteresis.ts).
   */
  async start(): Promise<void> {
    // In the write queue: an alert change heard while the watched alerts are read in (the bus is
    // subscribed before this, composition.ts) is read again after them, not lost between the
    // read and the subscription.
    const loaded = this.writes.then(() => this.load());
    this.writes = loaded.catch(() => {});
    await loaded;
  }

  private async load(): Promise<void> {
    const [watched, marks] = await Promise.all([
      this.store.alerts.listWatched(),
      this.store.spreadMarks.list(),
    ]);
    // A term as leader starts from what is stored, not from what this instance saw last time.
    this.lastValue.clear();
    this.heldNoted.clear();
    this.legs.reset();
    this.symbols.learnAll();
    this.following = true;
    for (const mark of marks) {
      if (this.symbols.trustsMark(mark)) this.lastValue.set(mark.symbol, mark);
    }
    for (const symbol of SPREAD_SYMBOLS) {
      const key = markKey(symbol, "spread");
      const spread = this.hub.snapshot().calculations[symbol]?.spread;
      if (spread === undefined || this.lastValue.has(key)) continue;
      this.lastValue.set(key, { symbol: key, value: spread, at: Date.now() });
    }
    this.replace(watched, undefined, false);
    this.markSaver = setInterval(() => this.queue(() => this.saveMarks()), MARK_SAVE_INTERVAL_MS);
    this.markSaver.unref();
  }

  /**
   * Resolves when the writes already queued are done. The composition root stops handing it
   * quotes and bus events first (composition.ts).
   */
  async stop(): Promise<void> {
    clearInterval(this.markSaver);
    this.following = false;
    this.queue(() => this.saveMarks());
    await this.writes;
  }

  /**
   * An alert, a permission or a Telegram link of `userId` changed (on any instance). Queued like
   * the writes: two reloads of one user must apply in the order they were asked for (on a pool
   * the older read can finish last and would bring back a deleted alert).
   */
  alertsChanged(userId: number): void {
    // Not started yet (or stopped): the start reads every user's alerts after this anyway.
    this.queue(async () => {
      if (this.following) await this.refreshUser(userId);
    });
  }

  /**
   * The bus is at most once: changes published while Redis was away are lost, so everything is
   * read again when it comes back (queued behind earlier writes and reloads).
   */
  busReconnected(): void {
    this.queue(async () => {
      if (this.following) this.replace(await this.store.alerts.listWatched());
    });
  }

  /** Re-reads one user's watched alerts: after an alert change, a permission toggle or a (dis)connect. */
  async refreshUser(userId: number): Promise<void> {
    this.replace(await this.store.alerts.listWatched(userId), userId);
  }

  /** Resolves when every write queued so far is done (tests, shutdown). */
  async idle(): Promise<void> {
    await this.writes;
  }

  /**
   * Why `symbol`'s value must not fire now (a stale or crossed leg, a closed market): position
   * alerts are held on the same legs, judged by the same LegWatch.
   */
  holdReason(symbol: string, prices: Readonly<Prices>): string | undefined {
    return this.legs.holdReason(symbol, prices);
  }

  get watchedCount(): number {
    let n = 0;
    for (const index of this.indexes.values()) n += index.size;
    return n;
  }

  /**
   * The definitions changed (registry.ts): a deleted one's symbols stop being watched at once
   * (its alerts are deleted with it); a changed formula's last values are forgotten, so the
   * first value on the new formula only records sides, as a new spread's would, and its alerts
   * start afresh; and the alerts that may be on a new or changed definition are read again, so
   * those made before this registry knew it join, and those whose owner can no longer see it
   * leave.
   */
  spreadsChanged(change: SpreadChange): void {
    if (this.following) this.symbolsChanged(this.symbols.apply(change));
  }

  private symbolsChanged({ removed, reformulated, reread }: SymbolChange): void {
    const fresh = new Set<string>();
    for (const symbol of [...removed, ...reformulated]) {
      for (const key of this.symbols.markKeysOf(symbol)) {
        this.lastValue.delete(key);
        this.unsavedMarks.delete(key);
        if (removed.includes(symbol)) this.indexes.delete(key);
        else fresh.add(key);
      }
      this.heldNoted.delete(symbol);
    }
    if (reread.everyone) {
      this.queue(async () =>
        this.replace(await this.store.alerts.listWatched(), undefined, true, fresh),
      );
      return;
    }
    for (const userId of reread.users)
      this.queue(async () =>
        this.replace(await this.store.alerts.listWatched(userId), userId, true, fresh),
      );
  }

  /**
   * Puts `alerts` in their indexes: every user's, or only `userId`'s. `keepLive`: an alert
   * already watched keeps its live state (see toEntry), unless its key is in `fresh`.
   */
  private replace(
    alerts: readonly WatchedAlert[],
    userId?: number,
    keepLive = true,
    fresh: ReadonlySet<string> = new Set(),
  ): void {
    const groups = new Map<string, WatchEntry[]>();
    for (const alert of alerts) {
      if (!this.symbols.watches(alert.commodityType, alert.userId)) continue;
      const key = markKey(alert.commodityType, metricOf(alert));
      const entry = this.toEntry(alert, key, keepLive && !fresh.has(key));
      const group = groups.get(key);
      if (group) group.push(entry);
      else groups.set(key, [entry]);
    }
    for (const key of groups.keys()) {
      if (!this.indexes.has(key)) this.indexes.set(key, new ThresholdIndex());
    }
    for (const [key, index] of this.indexes) {
      if (userId === undefined) index.replaceAll(groups.get(key) ?? []);
      else index.replaceUser(userId, groups.get(key) ?? []);
    }
  }

  /**
   * The engine's entry for a stored alert. One it already watches keeps its live state (when it
   * last fired, on which side, whether it re-armed) unless the stored firing is newer or the
   * alert's threshold or hysteresis changed: that state is exact, the stored one only a start.
   */
  private toEntry(alert: WatchedAlert, key: string, keepLive: boolean): WatchEntry {
    const entry: WatchEntry = {
      id: alert.id,
      userId: alert.userId,
      threshold: alert.threshold,
      lastFiredAt: alert.lastTelegramTriggered ?? undefined,
      hysteresis: hysteresisOf(alert.hysteresis),
      lastFiredSide: sideOf(alert.lastFiredSide),
      armed: true,
    };
    const known = keepLive ? this.indexes.get(key)?.find(alert.id) : undefined;
    if (
      known &&
      known.threshold === entry.threshold &&
      known.hysteresis === entry.hysteresis &&
      (known.lastFiredAt ?? -Infinity) >= (entry.lastFiredAt ?? -Infinity)
    ) {
      return {
        ...entry,
        lastFiredAt: known.lastFiredAt,
        lastFiredSide: known.lastFiredSide,
        armed: known.armed,
      };
    }
    entry.armed = armedAtStart(entry, this.lastValue.get(key)?.value);
    return entry;
  }

  /** Every accepted quote while this instance leads (composition.ts wires the hub to it). */
  onUpdate(update: HubUpdate): void {
    const at = update.quote.ts;
    this.legs.arrived(update.quote.key);
    const firings: Firing[] = [];
    const held: HeldCrossing[] = [];
    for (const symbol of update.symbols) {
      const keys = this.symbols.keysOf(symbol);
      if (!keys) continue;
      // A definition no alert watches is not even read: the hub evaluates one only when read.
      if (!isBuiltIn(symbol) && !this.anyWatched(keys)) continue;
      const spread = spreadIn(update.calculations, symbol);
      // No spread (a leg missing, a crossed book): nothing to judge; the last values stay.
      if (spread === undefined) continue;
      const hold = this.legs.holdReason(symbol, update.prices);
      if (hold === undefined) this.heldNoted.delete(symbol);
      for (const [metric, key] of keys) {
        const index = this.indexes.get(key);
        const value = this.valueOf(symbol, metric, key, spread, index);
        if (value === undefined || !index) continue;
        if (hold === undefined)
          this.observe(symbol, metric, key, index, value, spread, at, firings);
        else this.hold(symbol, metric, key, index, value, hold, at, held);
      }
    }
    if (held.length > 0) this.queue(() => this.recordHeld(held));
    if (firings.length === 0) return;
    const marks = this.takeUnsavedMarks();
    this.queue(() => this.record(firings, at, marks));
  }

  /** Whether an alert watches one of a symbol's metrics; the last values of none do are forgotten. */
  private anyWatched(keys: MetricKeys): boolean {
    let watched = false;
    for (const [, key] of keys) {
      if ((this.indexes.get(key)?.size ?? 0) > 0) watched = true;
      else this.lastValue.delete(key);
    }
    return watched;
  }

  /**
   * The metric's value now. A built-in's spread is always followed (its mark is stored); a
   * statistic, or a definition's spread (there may be a thousand), only while an alert watches
   * it, and its last value is forgotten when none does, so an alert made later starts afresh
   * rather than from a value long gone.
   */
  private valueOf(
    symbol: string,
    metric: AlertMetric,
    key: string,
    spread: number,
    index: ThresholdIndex | undefined,
  ): number | undefined {
    if (metric === "spread" && isBuiltIn(symbol)) return spread;
    if (!index || index.size === 0) {
      this.lastValue.delete(key);
      return undefined;
    }
    if (metric === "spread") return spread;
    const value = this.options.metrics?.liveMetric(symbol, metric, spread);
    return value !== undefined && Number.isFinite(value) ? value : undefined;
  }

  /** A trusted value: moves the last value on and fires the alerts it crossed. */
  private observe(
    symbol: string,
    metric: AlertMetric,
    key: string,
    index: ThresholdIndex,
    value: number,
    spread: number,
    at: number,
    firings: Firing[],
  ): void {
    const mark = this.lastValue.get(key);
    const previous = mark?.value;
    // Moved on in place: this runs on every quote (takeUnsavedMarks copies what it queues).
    if (mark) {
      mark.value = value;
      mark.at = at;
    } else this.lastValue.set(key, { symbol: key, value, at });
    this.unsavedMarks.add(key);
    // The first value of a symbol only records every alert's side (docs/spec.md §4).
    if (previous !== undefined) {
      for (const entry of index.crossedBy(previous, value)) {
        const side = this.firingSide(entry, previous, value, at);
        if (!side) continue;
        const before = {
          lastFiredAt: entry.lastFiredAt,
          side: entry.lastFiredSide,
          armed: entry.armed,
        };
        // Set now, not after the write: the next quote is judged before this one is stored.
        entry.lastFiredAt = at;
        index.fired(entry, side);
        firings.push({ symbol, metric, index, entry, side, value, spread, before });
      }
    }
    // After the crossings: the observation that re-arms an alert does not also fire it.
    index.rearm(value);
  }

  /**
   * A value built on a stale leg or a closed market: never fired, and the last value does not
   * move, so the crossing is judged again on fresh prices. Each alert it would have fired gets
   * one "held" History entry per hold.
   */
  private hold(
    symbol: string,
    metric: AlertMetric,
    key: string,
    index: ThresholdIndex,
    value: number,
    note: string,
    at: number,
    held: HeldCrossing[],
  ): void {
    const previous = this.lastValue.get(key)?.value;
    if (previous === undefined) return;
    const crossed = index.crossedBy(previous, value);
    if (crossed.length === 0) return;
    let noted = this.heldNoted.get(symbol);
    if (!noted) {
      noted = new Set();
      this.heldNoted.set(symbol, noted);
    }
    const now = Date.now();
    for (const entry of crossed) {
      if (noted.has(entry.id)) continue;
      const side = this.firingSide(entry, previous, value, at);
      if (!side) continue;
      noted.add(entry.id);
      held.push({ ...crossingOf(entry, symbol, metric, value, side, at, now), note });
    }
  }

  /** Runs `write` after every write queued before it; a failure is logged, not thrown. */
  private queue(write: () => Promise<void>): void {
    this.writes = this.writes.then(write).catch((error: unknown) => {
      warnEvery("alert-engine-write", 60_000, { err: error }, "alert engine: could not write");
    });
  }

  private takeUnsavedMarks(): SpreadMark[] {
    const marks: SpreadMark[] = [];
    for (const key of this.unsavedMarks) {
      const mark = this.lastValue.get(key);
      if (mark) marks.push({ ...mark });
    }
    this.unsavedMarks.clear();
    return marks;
  }

  private async saveMarks(): Promise<void> {
    const marks = this.takeUnsavedMarks();
    if (marks.length > 0) await this.store.spreadMarks.save(marks);
  }

  /** The side the alert fires on, or undefined when it waits to re-arm, or the core rule (or a replay) says not to. */
  private firingSide(
    entry: WatchEntry,
    previous: number,
    value: number,
    at: number,
  ): ThresholdSide | undefined {
    if (!entry.armed) return undefined;
    // A crossing at or before the last firing was already sent: the same quotes played again
    // after a restart (a replay) must not send duplicates.
    if (entry.lastFiredAt !== undefined && at <= entry.lastFiredAt) return undefined;
    const state = {
      side: thresholdSide(previous, entry.threshold),
      lastFiredAt: entry.lastFiredAt,
    };
    const crossing = observeCrossing(state, entry.threshold, value, at);
    return crossing.fired ? crossing.side : undefined;
  }

  private async recordHeld(held: readonly HeldCrossing[]): Promise<void> {
    const written = await this.store.alerts.recordHeld(held);
    // One line per quote, not per alert: a stale leg under a thousand alerts is one event.
    const [first] = held;
    log.info(
      { held: written, symbol: first?.symbol, note: first?.note },
      "alert crossings held (not fired) until fresh prices",
    );
  }

  /** Writes one update's firings (and the last values) in one transaction, then wakes the senders once. */
  private async record(firings: readonly Firing[], at: number, marks: SpreadMark[]): Promise<void> {
    const now = Date.now();
    const results = await this.store.alerts.recordFirings(
      firings.map((f) => this.toFiring(f, at, now)),
      marks,
    );
    // Alerts that can no longer fire leave their index in one pass per index: a storm can
    // disable thousands at once.
    const gone = new Map<ThresholdIndex, Set<number>>();
    firings.forEach(({ symbol, index, entry, side, value, before }, i) => {
      const recorded = results[i];
      const fields = { alertId: entry.id, userId: entry.userId, symbol };
      // Not sent after all (the alert can no longer send): as if it had not fired.
      if (!recorded && entry.lastFiredAt === at) {
        entry.lastFiredAt = before.lastFiredAt;
        index.unfired(entry, before.side, before.armed);
      }
      if (recorded) {
        const channels = recorded.outbox.map((o) => o.channel);
        log.debug({ ...fields, side, value, channels }, "alert fired; messages queued");
      }
      if (!recorded?.alert.enabled) {
        const ids = gone.get(index) ?? new Set<number>();
        gone.set(index, ids.add(entry.id));
        if (recorded) log.info(fields, "alert reached its notification limit and was disabled");
      }
    });
    for (const [index, ids] of gone) index.remove(ids);
    if (results.some((r) => r !== undefined)) this.onQueued();
  }

  private toFiring(firing: Firing, at: number, now: number): AlertFiring {
    const { symbol, metric, entry, side, value, spread } = firing;
    return {
      ...crossingOf(entry, symbol, metric, value, side, at, now),
      ...spreadFiringPayload({
        alertId: entry.id,
        symbol,
        label: this.symbols.labelOf(symbol),
        name: this.symbols.nameOf(symbol),
        metric,
        threshold: entry.threshold,
        value,
        spread,
        side,
        at,
      }),
    };
  }
}

/** The History row's part of a crossing, fired or held. */
function crossingOf(
  entry: WatchEntry,
  symbol: string,
  metric: AlertMetric,
  value: number,
  side: ThresholdSide,
  at: number,
  now: number,
): Crossing {
  return {
    alertId: entry.id,
    symbol,
    metric,
    value,
    threshold: entry.threshold,
    direction: side,
    at,
    now,
  };
}
