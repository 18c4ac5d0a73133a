import {
  observeCrossing,
  SPREAD_SYMBOLS,
  type SpreadSymbol,
  thresholdSide,
} from "@spreadwatch/core";
import {
  type Database,
  listWatchedAlerts,
  recordTelegramFiring,
  type WatchedAlert,
} from "@spreadwatch/db";
import type { HubUpdate, MarketHub } from "../market/hub.ts";
import { alertMessage } from "../telegram/messages.ts";
import { ThresholdIndex, type WatchEntry } from "./threshold-index.ts";

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
    const bySymbol = new Map<string, WatchEntry[]>();
    for (const alert of listWatchedAlerts(this.db)) {
      bySymbol.set(alert.commodityType, [
        ...(bySymbol.get(alert.commodityType) ?? []),
        toEntry(alert),
      ]);
    }
    for (const [symbol, index] of this.indexes) index.replaceAll(bySymbol.get(symbol) ?? []);
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
    const bySymbol = new Map<string, WatchEntry[]>();
    for (const alert of listWatchedAlerts(this.db, userId)) {
      bySymbol.set(alert.commodityType, [
        ...(bySymbol.get(alert.commodityType) ?? []),
        toEntry(alert),
      ]);
    }
    for (const [symbol, index] of this.indexes)
      index.replaceUser(userId, bySymbol.get(symbol) ?? []);
  }

  get watchedCount(): number {
    let n = 0;
    for (const index of this.indexes.values()) n += index.size;
    return n;
  }

  private onUpdate(update: HubUpdate): void {
    let queued = false;
    for (const symbol of update.symbols) {
      const spread = update.calculations[symbol]?.spread;
      if (spread === undefined) continue;
      const previous = this.lastSpread.get(symbol);
      this.lastSpread.set(symbol, spread);
      // The first value of a symbol only records every alert's side (spec §4).
      if (previous === undefined) continue;
      const index = this.indexes.get(symbol) as ThresholdIndex;
      for (const entry of index.crossedBy(previous, spread)) {
        if (this.fire(symbol, entry, previous, spread, update.quote.ts)) queued = true;
      }
    }
    if (queued) this.onQueued();
  }

  private fire(
    symbol: SpreadSymbol,
    entry: WatchEntry,
    previous: number,
    spread: number,
    at: number,
  ): boolean {
    // A crossing at or before the last firing was already sent: the same quotes played again
    // after a restart (a replay) must not send duplicates.
    if (entry.lastFiredAt !== undefined && at <= entry.lastFiredAt) return false;
    const state = {
      side: thresholdSide(previous, entry.threshold),
      lastFiredAt: entry.lastFiredAt,
    };
    const crossing = observeCrossing(state, entry.threshold, spread, at);
    if (!crossing.fired || !crossing.side) return false;
    const side = crossing.side;
    const recorded = recordTelegramFiring(this.db, {
      alertId: entry.id,
      at,
      now: Date.now(),
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
    });
    const index = this.indexes.get(symbol) as ThresholdIndex;
    if (!recorded) {
      index.remove(entry.id);
      return false;
    }
    entry.lastFiredAt = at;
    if (!recorded.alert.enabled) index.remove(entry.id);
    return true;
  }
}
