import type { Quote } from "@spreadwatch/core";
import { crossingTime, HIGH_ASK, LOW_ASK } from "../crossing-replay.ts";

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
