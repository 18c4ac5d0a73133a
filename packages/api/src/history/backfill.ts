import {
  aggregateCandles,
  applyQuote,
  bookIn,
  bucketStart,
  type Candle,
  CandleBuilder,
  CHART_SYMBOLS,
  type ChartSymbol,
  calculateAll,
  chartSymbolValues,
  type Duties,
  emptyPrices,
  type Prices,
  type Quote,
  TIMEFRAMES,
} from "@spreadwatch/core";
import type { CandleSource, Store, StoredCandle } from "@spreadwatch/db";
import { type ContractBatch, ContractMinutes } from "./contract-minutes.ts";

export const BACKFILL_DAYS = 30;

/** An instrument's one-minute mid candles as a backfill builds them: the closed ones so far. */
export type LegMinutes = Map<string, { builder: CandleBuilder; minutes: Candle[] }>;

/**
 * Adds `key`'s mid now to its one-minute candles (what the recorder stores for every instrument
 * in use); a one-sided or crossed book has no mid and adds nothing.
 */
export function addLegMid(
  legs: LegMinutes,
  prices: Prices,
  key: string,
  ts: number,
): number | undefined {
  const book = bookIn(prices, key);
  if (book?.bid === undefined || book.ask === undefined || book.bid > book.ask) return undefined;
  let leg = legs.get(key);
  if (!leg) {
    leg = { builder: new CandleBuilder("1m"), minutes: [] };
    legs.set(key, leg);
  }
  const mid = (book.bid + book.ask) / 2;
  const closed = leg.builder.add(ts, mid);
  if (closed) leg.minutes.push(closed);
  return mid;
}

/** A series' closed minutes as candles of every timeframe, for the store. */
function allTimeframes(symbol: string, minutes: readonly Candle[], into: StoredCandle[]): void {
  // Coarser timeframes from the minutes, by core — cheaper than six builders per sample. A
  // chunk's coarser buckets may be partial at its edges: the store merges a bucket written in
  // parts in the order written (open kept, high/low widened, close moved on).
  for (const timeframe of TIMEFRAMES) {
    const rows = timeframe === "1m" ? minutes : aggregateCandles(minutes, timeframe);
    for (const candle of rows) into.push({ symbol, timeframe, ...candle });
  }
}

export interface BackfillOptions {
  /** Where the candles came from (contract_candles' source). */
  source?: CandleSource;
  /**
   * The keys in use: quotes of other keys (the simulator's next months) give their contract a
   * past and nothing else. Every key counts when absent.
   */
  inUse?: ReadonlySet<string>;
  /**
   * Told, after each chunk is stored, that everything before `doneTo` is (a resumed backfill
   * starts there).
   */
  onStored?: (doneTo: number) => Promise<void>;
  /**
   * Per key, the time of the last roll already stored by an interrupted run of this backfill: a
   * resumed chunk's contracts up to then were recorded, and observing them again would record a
   * roll back to the old month.
   */
  rolledUntil?: ReadonlyMap<string, number>;
  /** Stops between slices; what was stored stays, and `onStored` said how far. */
  signal?: AbortSignal;
}

/**
 * The longest the backfill holds the event loop at once: requests wait at most about this long
 * while a first start fills its month (docs/history.md, "The first start").
 */
const SLICE_MS = 10;
/** Rows written in one transaction, a turn between: a day of every series is ~100,000 rows. */
const ROWS_PER_WRITE = 500;
/** A contract's minutes written at once (a day is 1,440; each write reads what is there first). */
const CONTRACT_MINUTES_PER_WRITE = 240;

/**
 * Contracts' minutes into `contract_candles` (the statistics' past, docs/history.md), a part at a
 * time with `pause` between: each part only fills its absent minutes.
 */
export async function writeContractMinutes(
  store: Pick<Store, "contractCandles">,
  batches: readonly ContractBatch[],
  source: CandleSource,
  pause: () => Promise<void>,
): Promise<void> {
  for (const { key, contract, candles: rows } of batches) {
    for (let i = 0; i < rows.length; i += CONTRACT_MINUTES_PER_WRITE) {
      await store.contractCandles.write(
        key,
        contract,
        source,
        rows.slice(i, i + CONTRACT_MINUTES_PER_WRITE),
      );
      await pause();
    }
  }
}

/** Resolves on the event loop's next turn, after the I/O (requests) already waiting. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A clock of the slice in hand: `due()` once it has run SLICE_MS, `yield()` gives the turn. */
function sliceClock() {
  let started = performance.now();
  return {
    due: () => performance.now() - started >= SLICE_MS,
    async yield() {
      await nextTurn();
      started = performance.now();
    },
  };
}

/** A quote's own mid: a whole uncrossed book, or its price. */
function midOf(quote: Quote): number | undefined {
  if (typeof quote.bid === "number" && typeof quote.ask === "number")
    return quote.bid <= quote.ask ? (quote.bid + quote.ask) / 2 : undefined;
  return quote.price;
}

/** What a backfill wrote: spread minutes, and the rolls it crossed. */
export interface BackfillResult {
  minutes: number;
  rolls: number;
}

/**
 * Builds candles of every timeframe from past quotes with core alone — never through the hub,
 * so old quotes cannot fire alerts or reach subscribers — and writes them a day at a time,
 * as they are made, so a month of history never sits in memory (BENCHMARKS.md, "First start"):
 * the chart symbols' spreads, every quoted instrument's mid (the legs' history of the users' own
 * spreads, docs/formulas.md), each exchange contract's own mid series (docs/history.md) and the
 * rolls the quotes cross (a key naming a new contract), in time order, as the live roll recorder
 * would have recorded them.
 */
export async function backfillCandles(
  store: Store,
  batches: Iterable<Quote[]>,
  duties: Duties,
  options: BackfillOptions = {},
): Promise<BackfillResult> {
  const { source = "simulated", inUse, signal } = options;
  const slice = sliceClock();
  const inSlices = async (rows: StoredCandle[], save: (part: StoredCandle[]) => Promise<void>) => {
    for (let i = 0; i < rows.length; i += ROWS_PER_WRITE) {
      await save(rows.slice(i, i + ROWS_PER_WRITE));
      await slice.yield();
    }
  };
  const prices = emptyPrices();
  const builders = new Map<ChartSymbol, CandleBuilder>(
    CHART_SYMBOLS.map((s) => [s, new CandleBuilder("1m")]),
  );
  let minutes = new Map<ChartSymbol, Candle[]>(CHART_SYMBOLS.map((s) => [s, []]));
  const legs: LegMinutes = new Map();
  const contracts = new ContractMinutes();
  const contractOf = new Map<string, string>();
  let seen: Array<{ key: string; contract: string; expiry?: string | undefined; ts: number }> = [];
  const result: BackfillResult = { minutes: 0, rolls: 0 };
  let chunk: number | undefined;

  const flush = async (all: boolean) => {
    const candles: StoredCandle[] = [];
    for (const [symbol, closed] of minutes) {
      const forming = all ? builders.get(symbol)?.forming : undefined;
      // The last minute stays open in the database too: the recorder resumes it.
      const series = forming ? closed.concat([forming]) : closed;
      result.minutes += series.length;
      allTimeframes(symbol, series, candles);
      if (slice.due()) await slice.yield();
    }
    minutes = new Map(CHART_SYMBOLS.map((s) => [s, []]));
    const legCandles: StoredCandle[] = [];
    for (const [key, leg] of legs) {
      const forming = all ? leg.builder.forming : undefined;
      allTimeframes(key, forming ? leg.minutes.concat([forming]) : leg.minutes, legCandles);
      leg.minutes = [];
      if (slice.due()) await slice.yield();
    }
    await inSlices(candles, (part) => store.candles.save(part));
    await inSlices(legCandles, (part) => store.instrumentCandles.save(part));
    await writeContractMinutes(store, contracts.drain(all), source, () => slice.yield());
    // In time order: the store records a roll where a key's contract differs from the last.
    for (const { key, contract, expiry, ts } of seen) {
      if (ts <= (options.rolledUntil?.get(key) ?? Number.NEGATIVE_INFINITY)) continue;
      if (await store.contracts.observe(key, contract, expiry, ts)) result.rolls++;
    }
    seen = [];
  };

  for (const quotes of batches) {
    for (const quote of quotes) {
      if (inUse && !inUse.has(quote.key)) {
        // A contract's past only (the next month of a key in use): no key, no roll of its own.
        const mid = midOf(quote);
        if (quote.contract && mid !== undefined)
          contracts.add(quote.key, quote.contract, quote.ts, mid);
        continue;
      }
      if (!applyQuote(prices, quote)) continue;
      const mid = addLegMid(legs, prices, quote.key, quote.ts);
      if (!quote.contract) continue;
      if (mid !== undefined) contracts.add(quote.key, quote.contract, quote.ts, mid);
      if (contractOf.get(quote.key) !== quote.contract) {
        contractOf.set(quote.key, quote.contract);
        seen.push({ key: quote.key, contract: quote.contract, expiry: quote.expiry, ts: quote.ts });
      }
    }
    const ts = quotes[0]?.ts;
    if (ts === undefined) continue;
    const values = chartSymbolValues(calculateAll(prices, duties), prices);
    for (const [symbol, builder] of builders) {
      const value = values[symbol];
      const closed = value === undefined ? undefined : builder.add(ts, value);
      if (closed) minutes.get(symbol)?.push(closed);
    }
    // A new IST day: what closed belongs to the days before. A day is small enough to hold
    // (a first start peaked at 323 MB with day chunks, 356 MB with hour chunks, both under a
    // loaded machine) and writes 24 times fewer chunks: the backfill took 34 s instead of 71 s.
    const day = bucketStart(ts, "1d");
    if (chunk !== undefined && day !== chunk) {
      await flush(false);
      // Everything before this moment is stored: the closed minutes, whose last one ended here.
      await options.onStored?.(ts);
    }
    chunk = day;
    if (slice.due()) {
      await slice.yield();
      if (signal?.aborted) return result;
    }
  }
  await flush(true);
  return result;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How many days a first start backfills: 30, or fewer when the history kept is shorter
 * (HISTORY_RETENTION_DAYS, docs/operations.md): a past the recorder would prune at once is
 * not worth making.
 */
export function backfillDays(retentionMs = Number.POSITIVE_INFINITY): number {
  return Math.min(BACKFILL_DAYS, retentionMs / DAY_MS);
}
