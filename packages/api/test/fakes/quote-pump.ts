import type { manualFeed } from "../server.ts";

type ManualFeed = ReturnType<typeof manualFeed>;

/** GC and GOLD books that move with `tick`, so both gold spreads change with every tick. */
export function goldBook(feed: ManualFeed, tick: number) {
  feed.push({ source: "cme", key: "GC", bid: 2650 + tick / 100, ask: 2651 + tick / 100, ts: tick });
  feed.push({ source: "mcx", key: "GOLD", bid: 72_100 + tick, ask: 72_120 + tick, ts: tick });
}

/**
 * Every 5 ms, `burst` ticks of the gold books and USDINR (which moves by 1 / `fxDivisor` a tick:
 * 1e6 makes long prices), so every snapshot the server may send is a new one. Returns the
 * function that stops it.
 */
export function pumpQuotes(feed: ManualFeed, { burst = 1, fxDivisor = 1e4 } = {}): () => void {
  let tick = 0;
  const timer = setInterval(() => {
    for (let i = 0; i < burst; i++) {
      tick++;
      goldBook(feed, tick);
      feed.push({ source: "fx", key: "USDINR", price: 84 + tick / fxDivisor, ts: tick });
    }
  }, 5);
  return () => clearInterval(timer);
}
