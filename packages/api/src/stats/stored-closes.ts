import type { CloseColumns, Store } from "@spreadwatch/db";
import { candlesFromLegHistory, ownHistoryStart } from "../history/definition-history.ts";
import type { SpreadRegistry } from "../spreads/registry.ts";
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
  return async (symbol: string, days: number): Promise<readonly MinuteClose[]> => {
    await flush();
    const [latest] = await store.candles.recent({ symbol, timeframe: "1m", limit: 1 });
    if (!latest) return [];
    const to = latest.timestamp + MINUTE_MS;
    // Raw rows: no candle object per minute of the window (docs/operations.md, "The first start").
    const rows = await store.candles.closes({
      symbol,
      timeframe: "1m",
      from: to - days * DAY_MS,
      to,
    });
    return minuteCloses(rows);
  };
}

/** Column reads (one typed array a field, no object a row) as the statistics' minute closes. */
export function minuteCloses({ times, closes }: CloseColumns): MinuteClose[] {
  const out: MinuteClose[] = new Array(times.length);
  for (let i = 0; i < times.length; i++)
    out[i] = { timestamp: times[i] as number, close: closes[i] as number };
  return out;
}

/**
 * A user definition's 1-minute closes for a window of `days`: its recorded closes from its first
 * live minute on, and before it the closes computed from its legs' stored mid candles (the
 * statistics of a spread made a minute ago cover its legs' past at once). The window ends at the
 * latest of either. Empty for a symbol that is not a user definition's.
 */
export function definitionCloses(
  store: Store,
  spreads: Pick<SpreadRegistry, "executable">,
  flush: () => Promise<void>,
): StoredCloses {
  return async (symbol: string, days: number): Promise<readonly MinuteClose[]> => {
    const found = spreads.executable(symbol);
    if (!found || found.spread.builtin || !found.spread.checked) return [];
    await flush();
    const spread = found.spread;
    const own = await ownHistoryStart(store, symbol, "1m", spread, undefined);
    const [latestOwn] = await store.candles.recent({ symbol, timeframe: "1m", limit: 1 });
    let latest = latestOwn?.timestamp;
    if (latest === undefined) {
      for (const leg of found.spread.checked?.legs ?? []) {
        const [last] = await store.instrumentCandles.recent({
          symbol: leg.instrument,
          timeframe: "1m",
          to: own,
          limit: 1,
        });
        if (last && (latest === undefined || last.timestamp > latest)) latest = last.timestamp;
      }
    }
    if (latest === undefined) return [];
    const to = latest + MINUTE_MS;
    const from = to - days * DAY_MS;
    const fromLegs = await candlesFromLegHistory(store, spread, "1m", {
      from,
      to: Math.min(own, to),
      limit: Number.MAX_SAFE_INTEGER,
    });
    const recorded =
      latestOwn === undefined
        ? []
        : await store.candles.recent({
            symbol,
            timeframe: "1m",
            from: Math.max(from, own),
            to,
            limit: Number.MAX_SAFE_INTEGER,
          });
    return [...fromLegs, ...recorded].map(({ timestamp, close }) => ({ timestamp, close }));
  };
}
