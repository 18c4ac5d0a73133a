import type { Quote } from "@spreadwatch/core";
import type { StoredCandle } from "@spreadwatch/db";
import { crossingTime, GOLD_PARITY, HIGH_ASK, LOW_ASK } from "../crossing-replay.ts";

/** A feed a test drives by hand (manualFeed in test/server.ts). */
interface PushFeed {
  push(quote: Quote): void;
}

/**
 * The crossing replay's opening, pushed by hand: USDINR 84, GC 2000 and GOLD at the low ask, all
 * at crossingTime(0), so GC_BUY starts below 0 (see crossing-replay.ts).
 */
export function pushOpening(feed: PushFeed): void {
  feed.push({ source: "fx", key: "USDINR", price: 84, ts: crossingTime(0) });
  feed.push({ source: "cme", key: "GC", bid: 2000, ask: 2000.5, ts: crossingTime(0) });
  pushGold(feed, 0);
}

/** GOLD at row k of the crossing replay: the high ask for odd k (GC_BUY above 0), else low. */
export function pushGold(feed: PushFeed, k: number): void {
  const ask = k % 2 === 1 ? HIGH_ASK : LOW_ASK;
  feed.push({ source: "mcx", key: "GOLD", bid: ask - 20, ask, ts: crossingTime(k) });
}

/** The opening, then crossings 1…n, one minute apart in quote time. */
export function pushCrossings(feed: PushFeed, n: number): void {
  pushOpening(feed);
  for (let k = 1; k <= n; k++) pushGold(feed, k);
}

/** USDINR 84 and GC 2000/2000.5 at `ts`: GC_BUY = GOLD ask − GOLD_PARITY (crossing-replay.ts). */
export function pushLegs(feed: PushFeed, ts: number): void {
  feed.push({ source: "fx", key: "USDINR", price: 84, ts });
  feed.push({ source: "cme", key: "GC", bid: 2000, ask: 2000.5, ts });
}

/** Puts GC_BUY at `spread` (to ~1e-11) with a GOLD quote at `ts` (after pushLegs). */
export function pushGoldSpread(feed: PushFeed, spread: number, ts: number): void {
  const ask = GOLD_PARITY + spread;
  feed.push({ source: "mcx", key: "GOLD", bid: ask - 20, ask, ts });
}

/**
 * GC_BUY 1-minute closes −10 and +10 in the minutes before `at`: mean 0, population σ 10, so
 * once loaded z = spread / 10 and the percentile of a spread ≥ 10 is 100. Stored through the
 * server's store; the statistics read them when a server starts leading (restart it after).
 */
export async function storeGoldStatistics(
  store: { candles: { save(candles: readonly StoredCandle[]): Promise<void> } },
  at: number,
): Promise<void> {
  await store.candles.save(
    [-10, 10].map((close, i) => ({
      symbol: "GC_BUY",
      timeframe: "1m",
      timestamp: at - (3 - i) * 60_000,
      open: close,
      high: close,
      low: close,
      close,
    })),
  );
}
