import {
  observeCrossing,
  SPREAD_SYMBOLS,
  type SpreadSymbol,
  type ThresholdSide,
  thresholdSide,
} from "@spreadwatch/core";
import type { SpreadMark, Store, WatchedAlert } from "@spreadwatch/db";
import type { Bus } from "../bus/index.ts";
import { log, warnEvery } from "../log.ts";
import type { HubUpdate, MarketHub } from "../market/hub.ts";
import { alertMessage } from "../telegram/messages.ts";
import { ThresholdIndex, type WatchEntry } from "./threshold-index.ts";

/** How often the last spreads are stored when nothing fires (a firing stores them with it). */
const MARK_SAVE_INTERVAL_MS = 1_000;

interface Firing {
  symbol: SpreadSymbol;
  entry: WatchEntry;
  side: ThresholdSide;
  spread: number;
  /** The entry's lastFiredAt before this firing, restored if the store writes nothing. */
  lastFiredAt: number | undefined;
}

/** Watched alerts grouped by symbol, built in one pass. */
function bySymbol(alerts: readonly WatchedAlert[]): Map<string, WatchEntry[]> {
  const groups = new Map<string, WatchEntry[]>();
  for (const alert of alerts) {
    const group = groups.get(alert.commodityType);
    if (group) group.push(toEntry(alert));
    else groups.set(alert.commodityType, [toEntry(alert)]);
  }
  return groups;
}

function toEntry(alert: WatchedAlert): WatchEntry {
  return {
    id: alert.id,
    userId: alert.userId,
    threshold: alert.threshold,
    lastFiredAt: alert.lastTelegramTriggered ?? undefined,
  };
}

/**
 * Evaluates Telegram alerts on the server, so they fire with no browser open. It is the only
 * writer of Telegram counts and the only producer of Telegram messages (through the outbox).
 * Times are the quotes' own, so a replay fires at the same moments every run.
 */
export class AlertEngine {
  private readonly indexes = new Map<SpreadSymbol, ThresholdIndex>(
    SPREAD_SYMBOLS.map((s) => [s, new ThresholdIndex()]),
  );
  /** The last spread seen per symbol: every watched alert's side is derived from it. */
  private readonly lastSpread = new Map<SpreadSymbol, SpreadMark>();
  /** Symbols whose last spread changed since it was last stored. */
  private readonly unsavedMarks = new Set<SpreadSymbol>();
  /**
   * Every write, in quote order: a quote's firings are one transaction, and the next quote's
   * only start after it, so two quotes' writes never interleave.
   */
  private writes: Promise<void> = Promise.resolve();
  private markSaver: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly store: Store,
    private readonly hub: MarketHub,
    /** Called after firings were queued, to wake the Telegram sender. */
    private readonly onQueued: () => void,
    /** Where alert changes arrive from, made on any instance. */
    private readonly bus?: Bus,
  ) {}

  /**
   * Starts from the stored last spreads (a previous leader's), so a crossing it already fired is
   * not fired again and one that happened between its last quote and ours is not lost; a symbol
   * never stored starts from the hub's current spread.
   */
  async start(): Promise<void> {
    const [watched, marks] = await Promise.all([
      this.store.alerts.listWatched(),
      this.store.spreadMarks.list(),
    ]);
    this.replaceAll(watched);
    for (const mark of marks) this.lastSpread.set(mark.symbol as SpreadSymbol, mark);
    for (const symbol of SPREAD_SYMBOLS) {
      const spread = this.hub.snapshot().calculations[symbol]?.spread;
      if (spread === undefined || this.lastSpread.has(symbol)) continue;
      this.lastSpread.set(symbol, { symbol, spread, at: Date.now() });
    }
    const offHub = this.hub.subscribe((update) => this.onUpdate(update));
    // Queued like the writes: two reloads of one user must apply in the order they were asked
    // for (on a pool the older read can finish last and would bring back a deleted alert).
    const offBus = this.bus?.subscribe("alerts.changed", ({ userId }) => {
      this.queue(() => this.refreshUser(userId));
    });
    // The bus is at most once: changes published while Redis was away are lost, so everything
    // is read again when it comes back (queued behind earlier writes and reloads).
    const offState = this.bus?.onState((state) => {
      if (state === "connected")
        this.queue(async () => this.replaceAll(await this.store.alerts.listWatched()));
    });
    this.unsubscribe = () => {
      offHub();
      offBus?.();
      offState?.();
    };
    this.markSaver = setInterval(() => this.queue(() => this.saveMarks()), MARK_SAVE_INTERVAL_MS);
    this.markSaver.unref();
  }

  /** Stops taking quotes at once; resolves when the writes already queued are done. */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    clearInterval(this.markSaver);
    this.queue(() => this.saveMarks());
    await this.writes;
  }

  private replaceAll(watched: readonly WatchedAlert[]): void {
    const groups = bySymbol(watched);
    for (const [symbol, index] of this.indexes) index.replaceAll(groups.get(symbol) ?? []);
  }

  /** Re-reads one user's watched alerts: after an alert change, a permission toggle or a (dis)connect. */
  async refreshUser(userId: number): Promise<void> {
    const groups = bySymbol(await this.store.alerts.listWatched(userId));
    for (const [symbol, index] of this.indexes) index.replaceUser(userId, groups.get(symbol) ?? []);
  }

  /** Resolves when every write queued so far is done (tests, shutdown). */
  async idle(): Promise<void> {
    await this.writes;
  }

  get watchedCount(): number {
    let n = 0;
    for (const index of this.indexes.values()) n += index.size;
    return n;
  }

  private onUpdate(update: HubUpdate): void {
    const at = update.quote.ts;
    const firings: Firing[] = [];
    for (const symbol of update.symbols) {
      const spread = update.calculations[symbol]?.spread;
      if (spread === undefined) continue;
      const previous = this.lastSpread.get(symbol)?.spread;
      this.lastSpread.set(symbol, { symbol, spread, at });
      this.unsavedMarks.add(symbol);
      // The first value of a symbol only records every alert's side (spec §4).
      if (previous === undefined) continue;
      const index = this.indexes.get(symbol) as ThresholdIndex;
      for (const entry of index.crossedBy(previous, spread)) {
        const side = this.firingSide(entry, previous, spread, at);
        if (!side) continue;
        // Set now, not after the write: the next quote is judged before this one is stored.
        const lastFiredAt = entry.lastFiredAt;
        entry.lastFiredAt = at;
        firings.push({ symbol, entry, side, spread, lastFiredAt });
      }
    }
    if (firings.length === 0) return;
    const marks = this.takeUnsavedMarks();
    this.queue(() => this.record(firings, at, marks));
  }

  /** Runs `write` after every write queued before it; a failure is logged, not thrown. */
  private queue(write: () => Promise<void>): void {
    this.writes = this.writes.then(write).catch((error: unknown) => {
      warnEvery("alert-engine-write", 60_000, { err: error }, "alert engine: could not write");
    });
  }

  private takeUnsavedMarks(): SpreadMark[] {
    const marks: SpreadMark[] = [];
    for (const symbol of this.unsavedMarks) {
      const mark = this.lastSpread.get(symbol);
      if (mark) marks.push({ ...mark });
    }
    this.unsavedMarks.clear();
    return marks;
  }

  private async saveMarks(): Promise<void> {
    const marks = this.takeUnsavedMarks();
    if (marks.length > 0) await this.store.spreadMarks.save(marks);
  }

  /** The side the alert fires on, or undefined when the core rule (or a replay) says not to. */
  private firingSide(
    entry: WatchEntry,
    previous: number,
    spread: number,
    at: number,
  ): ThresholdSide | undefined {
    // A crossing at or before the last firing was already sent: the same quotes played again
    // after a restart (a replay) must not send duplicates.
    if (entry.lastFiredAt !== undefined && at <= entry.lastFiredAt) return undefined;
    const state = {
      side: thresholdSide(previous, entry.threshold),
      lastFiredAt: entry.lastFiredAt,
    };
    const crossing = observeCrossing(state, entry.threshold, spread, at);
    return crossing.fired ? crossing.side : undefined;
  }

  /** Writes one update's firings (and the last spreads) in one transaction, then wakes the sender once. */
  private async record(firings: readonly Firing[], at: number, marks: SpreadMark[]): Promise<void> {
    const now = Date.now();
    const results = await this.store.alerts.recordTelegramFirings(
      firings.map(({ symbol, entry, side, spread }) => ({
        alertId: entry.id,
        at,
        now,
        text: (alert) =>
          alertMessage({
            commodityType: symbol,
            threshold: entry.threshold,
            spread,
            side,
            at,
            count: alert.telegramNotificationCount,
            limit: alert.maxNotifications,
          }),
      })),
      marks,
    );
    firings.forEach(({ symbol, entry, side, spread, lastFiredAt }, i) => {
      const recorded = results[i];
      const fields = { alertId: entry.id, userId: entry.userId, symbol };
      // Not sent after all (the alert can no longer send): as if it had not fired.
      if (!recorded && entry.lastFiredAt === at) entry.lastFiredAt = lastFiredAt;
      if (recorded) {
        log.debug({ ...fields, side, spread }, "alert fired; Telegram message queued");
      }
      if (!recorded?.alert.enabled) {
        this.indexes.get(symbol)?.remove(entry.id);
        if (recorded) log.info(fields, "alert reached its Telegram limit and was disabled");
      }
    });
    if (results.some((r) => r !== undefined)) this.onQueued();
  }
}
