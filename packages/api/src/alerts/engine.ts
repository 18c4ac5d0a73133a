import {
  observeCrossing,
  SPREAD_SYMBOLS,
  type SpreadSymbol,
  type ThresholdSide,
  thresholdSide,
} from "@spreadwatch/core";
import {
  type Database,
  listWatchedAlerts,
  recordTelegramFirings,
  type WatchedAlert,
} from "@spreadwatch/db";
import { log } from "../log.ts";
import type { HubUpdate, MarketHub } from "../market/hub.ts";
import { alertMessage } from "../telegram/messages.ts";
import { ThresholdIndex, type WatchEntry } from "./threshold-index.ts";

interface Firing {
  symbol: SpreadSymbol;
  entry: WatchEntry;
  side: ThresholdSide;
  spread: number;
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
  private readonly lastSpread = new Map<SpreadSymbol, number>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly db: Database,
    private readonly hub: MarketHub,
    /** Called after firings were queued, to wake the Telegram sender. */
    private readonly onQueued: () => void,
  ) {}

  start(): void {
    const groups = bySymbol(listWatchedAlerts(this.db));
    for (const [symbol, index] of this.indexes) index.replaceAll(groups.get(symbol) ?? []);
    for (const symbol of SPREAD_SYMBOLS) {
      const spread = this.hub.snapshot().calculations[symbol]?.spread;
      if (spread !== undefined) this.lastSpread.set(symbol, spread);
    }
    this.unsubscribe = this.hub.subscribe((update) => this.onUpdate(update));
  }

  stop(): void {
    this.unsubscribe?.();
  }

  /** Re-reads one user's watched alerts: after an alert change, a permission toggle or a (dis)connect. */
  refreshUser(userId: number): void {
    const groups = bySymbol(listWatchedAlerts(this.db, userId));
    for (const [symbol, index] of this.indexes) index.replaceUser(userId, groups.get(symbol) ?? []);
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
      const previous = this.lastSpread.get(symbol);
      this.lastSpread.set(symbol, spread);
      // The first value of a symbol only records every alert's side (spec §4).
      if (previous === undefined) continue;
      const index = this.indexes.get(symbol) as ThresholdIndex;
      for (const entry of index.crossedBy(previous, spread)) {
        const side = this.firingSide(entry, previous, spread, at);
        if (side) firings.push({ symbol, entry, side, spread });
      }
    }
    if (firings.length > 0) this.record(firings, at);
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

  /** Writes one update's firings in one transaction, then wakes the sender once. */
  private record(firings: readonly Firing[], at: number): void {
    const now = Date.now();
    const results = recordTelegramFirings(
      this.db,
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
    );
    firings.forEach(({ symbol, entry, side, spread }, i) => {
      const recorded = results[i];
      const fields = { alertId: entry.id, userId: entry.userId, symbol };
      if (recorded) {
        entry.lastFiredAt = at;
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
