import type { ChartSymbol } from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";
import type { MinuteClose, StoredCloses } from "./spread-stats-service.ts";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * The stored 1-minute closes of a window of `days` ending at the symbol's latest candle (the
 * window RollingSpreadStats keeps), so a server that was down for a week still starts with
 * the days before it stopped. `flush` first writes the candles the recorder closed but has
 * not stored yet (it writes once a second), or a window loaded then would miss them.
 */
export function storedCloses(store: Store, flush: () => Promise<void>): StoredCloses {
  return async (symbol: ChartSymbol, days: number): Promise<readonly MinuteClose[]> => {
    await flush();
    const [latest] = await store.candles.recent({ symbol, timeframe: "1m", limit: 1 });
    if (!latest) return [];
    const to = latest.timestamp + MINUTE_MS;
    return store.candles.recent({
      symbol,
      timeframe: "1m",
      from: to - days * DAY_MS,
      to,
      limit: Number.MAX_SAFE_INTEGER,
    });
  };
}
