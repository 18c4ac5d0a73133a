import {
  aggregateCandles,
  bookIn,
  bucketStart,
  type Candle,
  CandleBuilder,
  CHART_SYMBOLS,
  chartSymbolsAffectedBy,
  chartSymbolValues,
  isChartSymbol,
  TIMEFRAMES,
  type Timeframe,
  timeframeMs,
} from "@spreadwatch/core";
import type { Store, StoredCandle } from "@spreadwatch/db";
import { warnEvery } from "../log.ts";
import type { HubUpdate } from "../market/hub.ts";
import type { RegisteredSpread, SpreadChange } from "../spreads/registry.ts";
import { type ContractBatch, ContractMinutes } from "./contract-minutes.ts";

/** Closed candles are written in batches, off the quote path. */
const WRITE_INTERVAL_MS = 1_000;
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const MINUTE_MS = 60_000;

type Builders = Map<Timeframe, CandleBuilder>;

/**
 * The spread definitions the recorder records (the registry; its built-ins are skipped); their
 * changes come through `spreadsChanged`, which the composition root hands over.
 */
export interface RecordedSpreads {
  all(): readonly RegisteredSpread[];
}

/** A user's definition as recorded: its executable symbols and what its candles were made of. */
interface Recorded {
  spread: RegisteredSpread;
  symbols: { BUY: string; SELL: string };
  /** Legs and formula: a definition whose recipe changes starts its recorded history afresh. */
  recipe: string;
}

const recipeOf = (spread: RegisteredSpread) =>
  JSON.stringify([spread.formula, spread.legs.map((l) => [l.name, l.instrument])]);

/**
 * Records, from the quotes' own timestamps, candles of every timeframe of: every built-in chart
 * symbol's spread (as always); every user definition's executable sides (SP7_BUY, SP7_SELL,
 * evaluated with core from the same prices the hub holds); and every instrument's mid
 * (`instrumentCandles`), which give a new definition its past (docs/formulas.md). Forming candles
 * live in memory; closed ones are written within a second, and the forming ones at shutdown.
 */
export class HistoryRecorder {
  private readonly builders = new Map<string, Builders>();
  private readonly legBuilders = new Map<string, Builders>();
  private readonly definitions = new Map<string, Recorded>();
  /** Instrument key → the recorded definitions with a leg on it. */
  private byInstrument = new Map<string, Recorded[]>();
  private pending: StoredCandle[] = [];
  private pendingLegs: StoredCandle[] = [];
  /** One-minute mid candles per exchange contract the quotes name (store.contractCandles). */
  private readonly contractMinutes = new ContractMinutes();
  private pendingContracts: ContractBatch[] = [];
  /** Saves run one after another: a bucket's later close must land after its earlier one. */
  private writes: Promise<void> = Promise.resolve();
  private writer: NodeJS.Timeout | undefined;
  private pruner: NodeJS.Timeout | undefined;
  /** Between start and stop: the registry's changes are applied. */
  private following = false;
  private readonly minuteListeners = new Set<(symbol: string, candle: Candle) => void>();

  constructor(
    private readonly store: Store,
    private readonly retentionMs: number,
    private readonly spreads?: RecordedSpreads,
  ) {}

  /** Tells `listener` of every closed 1-minute candle (the spread statistics are fed from here). */
  onMinuteClosed(listener: (symbol: string, candle: Candle) => void): () => void {
    this.minuteListeners.add(listener);
    return () => this.minuteListeners.delete(listener);
  }

  /** A definition added, changed or removed in the registry: its candles follow from now on. */
  spreadsChanged(change: SpreadChange): void {
    if (this.following) this.follow([...change.added, ...change.changed], change.removed);
  }

  /**
   * Resumes each symbol's latest stored candle, so a minute split by a restart stays one candle;
   * a coarser candle resumes from the stored minutes of its bucket, so one spanning the start
   * opens where its first stored minute opened, not at the first live value (docs/history.md,
   * "The first start").
   */
  async start(): Promise<void> {
    for (const symbol of CHART_SYMBOLS) {
      const perTimeframe: Builders = new Map();
      const [lastMinute] = await this.store.candles.recent({ symbol, timeframe: "1m", limit: 1 });
      for (const timeframe of TIMEFRAMES) {
        const [latest] = await this.store.candles.recent({ symbol, timeframe, limit: 1 });
        const resume =
          timeframe === "1m" ? latest : await this.resumed(symbol, timeframe, latest, lastMinute);
        perTimeframe.set(timeframe, new CandleBuilder(timeframe, resume));
      }
      this.builders.set(symbol, perTimeframe);
    }
    if (this.spreads) {
      this.follow(this.spreads.all(), []);
      this.following = true;
    }
    this.writer = setInterval(
      () => void this.inBackground("write candles", () => this.writePending()),
      WRITE_INTERVAL_MS,
    );
    this.writer.unref();
    void this.inBackground("prune candles", () => this.prune());
    this.pruner = setInterval(
      () => void this.inBackground("prune candles", () => this.prune()),
      PRUNE_INTERVAL_MS,
    );
    this.pruner.unref();
  }

  /**
   * The candle of `timeframe` to resume: the bucket of the latest stored minute, made of that
   * bucket's stored minutes and merged with its stored candle where there is one (its open the
   * first minute's, high and low over both). A coarser candle stored later than the last minute
   * resumes as it is.
   */
  private async resumed(
    symbol: string,
    timeframe: Timeframe,
    latest: Candle | undefined,
    lastMinute: Candle | undefined,
  ): Promise<Candle | undefined> {
    if (!lastMinute) return latest;
    const bucket = bucketStart(lastMinute.timestamp, timeframe);
    if (bucket === undefined || (latest && latest.timestamp > bucket)) return latest;
    const minutes = await this.store.candles.recent({
      symbol,
      timeframe: "1m",
      from: bucket,
      to: lastMinute.timestamp + MINUTE_MS,
      limit: timeframeMs(timeframe) / MINUTE_MS,
    });
    const [fromMinutes] = aggregateCandles(minutes, timeframe);
    if (!fromMinutes) return latest;
    if (latest?.timestamp !== bucket) return fromMinutes;
    return {
      timestamp: bucket,
      open: fromMinutes.open,
      high: Math.max(fromMinutes.high, latest.high),
      low: Math.min(fromMinutes.low, latest.low),
      close: fromMinutes.close,
    };
  }

  /**
   * The first start's backfill stored the past up to `to`, the minute this server started in
   * (history/first-start.ts), after this recorder began. A coarser candle spanning `to` that the
   * recorder closed and wrote meanwhile opened at the first live value, and the backfill's part
   * merged into it kept that open: it is made again from the bucket's stored minutes (both
   * parts) and written over. One still forming needs nothing: the backfill's part was stored
   * first, so the store and the chart keep its open (docs/history.md, "The first start").
   */
  async pastStored(to: number): Promise<void> {
    await this.writePending();
    // The chart symbols' spreads and the instruments' mids: what the backfill writes.
    const chartSymbols = [...this.builders].filter(([symbol]) => isChartSymbol(symbol));
    await remake(this.store.candles, chartSymbols, to);
    await remake(this.store.instrumentCandles, this.legBuilders, to);
  }

  /** Writes what is closed and what is forming; later samples of those buckets start afresh. */
  async stop(): Promise<void> {
    clearInterval(this.writer);
    clearInterval(this.pruner);
    this.following = false;
    queueForming(this.builders, this.pending);
    queueForming(this.legBuilders, this.pendingLegs);
    this.pendingContracts.push(...this.contractMinutes.drain(true));
    await this.writePending();
  }

  /**
   * The candle still forming for a symbol and timeframe (the chart's live last candle). A user
   * definition's builders start with its first value after a start, so its forming candle may
   * hold only part of its bucket: the chart merges it with the stored one.
   */
  forming(symbol: string, timeframe: Timeframe): Readonly<Candle> | undefined {
    return this.builders.get(symbol)?.get(timeframe)?.forming;
  }

  /** The mid candle an instrument is forming now (a user spread's last candle from its legs). */
  formingLeg(key: string, timeframe: Timeframe): Readonly<Candle> | undefined {
    return this.legBuilders.get(key)?.get(timeframe)?.forming;
  }

  /** Writes the closed candles still queued (the timer does this every second). */
  writePending(): Promise<void> {
    const write = this.writes.then(() => this.saveBatch());
    this.writes = write.catch(() => {});
    return write;
  }

  private async saveBatch(): Promise<void> {
    const spreads = this.pending;
    const legs = this.pendingLegs;
    const contracts = this.pendingContracts.concat(this.contractMinutes.drain());
    this.pending = [];
    this.pendingLegs = [];
    this.pendingContracts = [];
    try {
      if (spreads.length > 0) await this.store.candles.save(spreads);
      if (legs.length > 0) await this.store.instrumentCandles.save(legs);
      while (contracts.length > 0) {
        const { key, contract, candles } = contracts[0] as ContractBatch;
        await this.store.contractCandles.write(key, contract, "recorded", candles);
        contracts.shift();
      }
    } catch (error) {
      // Kept for the next tick: a busy or full disk must not lose the minute's candles. (Spread
      // candles saved before a leg batch failed are saved again: the store merges them.)
      this.pending = spreads.concat(this.pending);
      this.pendingLegs = legs.concat(this.pendingLegs);
      this.pendingContracts = contracts.concat(this.pendingContracts);
      throw error;
    }
  }

  /**
   * A timer's work failing (disk full, database busy) must not crash the server: warn, retry.
   * Never rejects, so its callers start it with `void`.
   */
  private async inBackground(what: string, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      warnEvery(`history-${what}`, 60_000, { err: error }, `history: could not ${what}`);
    }
  }

  /** Every accepted quote while this instance leads (composition.ts wires the hub to it). */
  onUpdate(update: HubUpdate): void {
    const { quote, prices } = update;
    const book = bookIn(prices, quote.key);
    if (book?.bid !== undefined && book.ask !== undefined && book.bid <= book.ask) {
      const mid = (book.bid + book.ask) / 2;
      this.addLeg(quote.key, quote.ts, mid);
      if (quote.contract) this.contractMinutes.add(quote.key, quote.contract, quote.ts, mid);
    }
    const affected = chartSymbolsAffectedBy(quote);
    if (affected.length > 0) {
      const values = chartSymbolValues(update.calculations, prices);
      for (const symbol of affected) {
        const value = values[symbol];
        if (value !== undefined) this.addSample(symbol, quote.ts, value);
      }
    }
    const touched = this.byInstrument.get(quote.key);
    if (!touched) return;
    // The hub evaluated each definition this quote touched (once, for every listener): read its
    // entry rather than evaluating the formula again.
    const entries = update.calculations as unknown as Record<
      string,
      { spread: number } | undefined
    >;
    for (const recorded of touched) {
      for (const side of ["BUY", "SELL"] as const) {
        const symbol = recorded.symbols[side];
        const value = entries[symbol]?.spread;
        if (value !== undefined) this.addSample(symbol, quote.ts, value);
      }
    }
  }

  private addSample(symbol: string, ts: number, value: number): void {
    let perTimeframe = this.builders.get(symbol);
    if (!perTimeframe) {
      perTimeframe = freshBuilders();
      this.builders.set(symbol, perTimeframe);
    }
    for (const [timeframe, builder] of perTimeframe) {
      const closed = builder.add(ts, value);
      if (!closed) continue;
      this.pending.push({ symbol, timeframe, ...closed });
      if (timeframe === "1m") for (const listener of this.minuteListeners) listener(symbol, closed);
    }
  }

  private addLeg(key: string, ts: number, mid: number): void {
    let perTimeframe = this.legBuilders.get(key);
    if (!perTimeframe) {
      // No resume: the store merges a bucket written twice, so a restart loses nothing.
      perTimeframe = freshBuilders();
      this.legBuilders.set(key, perTimeframe);
    }
    for (const [timeframe, builder] of perTimeframe) {
      const closed = builder.add(ts, mid);
      if (closed) this.pendingLegs.push({ symbol: key, timeframe, ...closed });
    }
  }

  /**
   * Follows the registry: the users' definitions (not the built-ins, recorded above as always)
   * are indexed by leg instrument. A definition whose legs or formula changed, or that is gone,
   * loses its recorded candles: they were of another spread, and its leg history stands in.
   */
  private follow(current: readonly RegisteredSpread[], removed: readonly RegisteredSpread[]): void {
    const forgotten: string[] = [];
    for (const spread of removed) {
      const recorded = this.definitions.get(spread.symbol);
      if (!recorded) continue;
      this.definitions.delete(spread.symbol);
      forgotten.push(recorded.symbols.BUY, recorded.symbols.SELL);
    }
    for (const spread of current) {
      if (spread.builtin) continue;
      const recipe = recipeOf(spread);
      const before = this.definitions.get(spread.symbol);
      if (before && before.recipe !== recipe)
        forgotten.push(before.symbols.BUY, before.symbols.SELL);
      this.definitions.set(spread.symbol, {
        spread,
        recipe,
        symbols: { BUY: `${spread.symbol}_BUY`, SELL: `${spread.symbol}_SELL` },
      });
    }
    const index = new Map<string, Recorded[]>();
    for (const recorded of this.definitions.values())
      for (const key of new Set(recorded.spread.legs.map((l) => l.instrument)))
        index.set(key, [...(index.get(key) ?? []), recorded]);
    this.byInstrument = index;
    if (forgotten.length === 0) return;
    const gone = new Set(forgotten);
    for (const symbol of gone) this.builders.delete(symbol);
    this.pending = this.pending.filter((c) => !gone.has(c.symbol));
    // In the line of writes, after any save already under way, so none lands after the delete.
    const forget = this.writes.then(() => this.store.candles.remove([...gone]));
    this.writes = forget.then(
      () => {},
      () => {},
    );
    void this.inBackground("forget candles", () => forget);
  }

  private async prune(): Promise<void> {
    const cutoff = Date.now() - this.retentionMs;
    await this.store.candles.prune("1m", cutoff);
    await this.store.instrumentCandles.prune("1m", cutoff);
    await this.store.contractCandles.prune(cutoff);
    this.contractMinutes.forgetIdle(Date.now(), 24 * 60 * 60 * 1000);
  }
}

/**
 * The coarser candles spanning `to` that were written (not forming) made again from their
 * bucket's stored minutes and written over (HistoryRecorder.pastStored).
 */
async function remake(
  table: Store["candles"],
  series: Iterable<[string, Builders]>,
  to: number,
): Promise<void> {
  const again: StoredCandle[] = [];
  for (const [symbol, perTimeframe] of series) {
    for (const [timeframe, builder] of perTimeframe) {
      if (timeframe === "1m") continue;
      const bucket = bucketStart(to, timeframe);
      // A bucket starting at `to` has no backfilled part; one forming holds its own open.
      if (bucket === undefined || bucket === to || builder.forming?.timestamp === bucket) continue;
      const minutes = await table.recent({
        symbol,
        timeframe: "1m",
        from: bucket,
        to: bucket + timeframeMs(timeframe),
        limit: timeframeMs(timeframe) / MINUTE_MS,
      });
      // Only a bucket the recorder wrote: its minutes from `to` on are stored.
      if (!minutes.some((m) => m.timestamp >= to)) continue;
      const [whole] = aggregateCandles(minutes, timeframe);
      if (whole) again.push({ symbol, timeframe, ...whole });
    }
  }
  if (again.length > 0) await table.replace(again);
}

function freshBuilders(): Builders {
  return new Map(TIMEFRAMES.map((timeframe) => [timeframe, new CandleBuilder(timeframe)]));
}

function queueForming(all: Map<string, Builders>, into: StoredCandle[]): void {
  for (const [symbol, perTimeframe] of all) {
    for (const [timeframe, builder] of perTimeframe) {
      const forming = builder.forming;
      if (forming) into.push({ symbol, timeframe, ...forming });
    }
  }
}
