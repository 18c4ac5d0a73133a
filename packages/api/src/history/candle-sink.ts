import type { Store } from "@spreadwatch/db";

const MINUTE_MS = 60_000;

/** Where a fetched past came from (docs/market-data.md, "The past from the providers"). */
export type HistorySource = "kite" | "yahoo";

/** One fetched bar: its start (epoch ms) and its open, high, low and close. */
export interface HistoryCandle {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
}

/**
 * Where fetched candles go. Written through this port so the storage of the past (a row per
 * instrument key today, per exchange contract later) changes in one place. Returns how many
 * candles were new: a minute already stored (recorded live, or fetched before) is never written
 * over, so a fetch repeated after a crash adds nothing twice.
 */
export interface CandleSink {
  write(
    key: string,
    contract: string,
    source: HistorySource,
    candles: readonly HistoryCandle[],
  ): Promise<number>;
}

/**
 * The sink into the instruments' one-minute candles (`instrument_candles`, the legs' past the
 * charts and statistics read): each bar goes to the minute it starts in, insert-if-absent.
 */
export function instrumentCandleSink(store: Pick<Store, "instrumentCandles">): CandleSink {
  return {
    async write(key, _contract, _source, candles) {
      const byMinute = new Map<number, HistoryCandle>();
      for (const candle of candles)
        byMinute.set(Math.floor(candle.t / MINUTE_MS) * MINUTE_MS, candle);
      const times = [...byMinute.keys()].sort((a, b) => a - b);
      let written = 0;
      // A day at a time, a turn of the event loop between: weeks of minutes read and written in
      // one go would hold the server's requests for seconds.
      for (let i = 0; i < times.length; ) {
        const dayEnd = (times[i] as number) + DAY_MS;
        let j = i;
        while (j < times.length && (times[j] as number) < dayEnd) j++;
        written += await writeAbsent(store, key, times.slice(i, j), byMinute);
        await turn();
        i = j;
      }
      return written;
    },
  };
}

/**
 * The sink into the per-contract record (`contract_candles`, docs/history.md), which the built-in
 * spreads' statistics read from the contracts their legs quote now. The store fills only absent
 * minutes for a fetched source, so a recorded minute is never overwritten.
 */
export function contractCandleSink(store: Pick<Store, "contractCandles">): CandleSink {
  return {
    async write(key, contract, source, candles) {
      const rows = candles.map((c) => ({
        timestamp: Math.floor(c.t / MINUTE_MS) * MINUTE_MS,
        open: c.o,
        high: c.h,
        low: c.l,
        close: c.c,
      }));
      let written = 0;
      // A day at a time, as above: one write of weeks of minutes would hold the event loop.
      for (let i = 0; i < rows.length; i += DAY_MINUTES) {
        written += await store.contractCandles.write(
          key,
          contract,
          source,
          rows.slice(i, i + DAY_MINUTES),
        );
        await turn();
      }
      return written;
    },
  };
}

/**
 * Every fetched bar goes to each sink: the contract's own record and the key's chart past. The
 * count is the most any sink found new (each holds the same minutes).
 */
export function allSinks(...sinks: readonly CandleSink[]): CandleSink {
  return {
    async write(key, contract, source, candles) {
      let written = 0;
      for (const sink of sinks)
        written = Math.max(written, await sink.write(key, contract, source, candles));
      return written;
    },
  };
}

const DAY_MS = 86_400_000;
const DAY_MINUTES = 1_440;

export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function writeAbsent(
  store: Pick<Store, "instrumentCandles">,
  key: string,
  times: readonly number[],
  byMinute: ReadonlyMap<number, HistoryCandle>,
): Promise<number> {
  const stored = await store.instrumentCandles.recent({
    symbol: key,
    timeframe: "1m",
    from: times[0] as number,
    to: (times.at(-1) as number) + MINUTE_MS,
    limit: Number.MAX_SAFE_INTEGER,
  });
  const taken = new Set(stored.map((row) => row.timestamp));
  const rows = times
    .filter((t) => !taken.has(t))
    .map((t) => {
      const c = byMinute.get(t) as HistoryCandle;
      return {
        symbol: key,
        timeframe: "1m",
        timestamp: t,
        open: c.o,
        high: c.h,
        low: c.l,
        close: c.c,
      };
    });
  if (rows.length > 0) await store.instrumentCandles.save(rows);
  return rows.length;
}
