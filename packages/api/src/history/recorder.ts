import {
  type Candle,
  CandleBuilder,
  CHART_SYMBOLS,
  type ChartSymbol,
  chartSymbolsAffectedBy,
  chartSymbolValues,
  TIMEFRAMES,
  type Timeframe,
} from "@spreadwatch/core";
import type { Store, StoredCandle } from "@spreadwatch/db";
import { warnEvery } from "../log.ts";
import type { HubUpdate } from "../market/hub.ts";

/** Closed candles are written in batches, off the quote path. */
const WRITE_INTERVAL_MS = 1_000;
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Records every chart symbol's spread as candles of every timeframe, from the quotes' own
 * timestamps. Forming candles live in memory; closed ones are written within a second, and the
 * forming ones at shutdown.
 */
export class HistoryRecorder {
  private readonly builders = new Map<ChartSymbol, Map<Timeframe, CandleBuilder>>();
  private pending: StoredCandle[] = [];
  /** Saves run one after another: a bucket's later close must land after its earlier one. */
  private writes: Promise<void> = Promise.resolve();
  private writer: NodeJS.Timeout | undefined;
  private pruner: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    private readonly retentionMs: number,
    /** Told of every closed 1-minute candle (the spread statistics are fed from here). */
    private readonly onMinuteClosed?: (symbol: ChartSymbol, candle: Candle) => void,
  ) {}

  /** Resumes each symbol's latest stored candle, so a minute split by a restart stays one candle. */
  async start(): Promise<void> {
    for (const symbol of CHART_SYMBOLS) {
      const perTimeframe = new Map<Timeframe, CandleBuilder>();
      for (const timeframe of TIMEFRAMES) {
        const [latest] = await this.store.candles.recent({ symbol, timeframe, limit: 1 });
        perTimeframe.set(timeframe, new CandleBuilder(timeframe, latest));
      }
      this.builders.set(symbol, perTimeframe);
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

  /** Writes what is closed and what is forming; later samples of those buckets start afresh. */
  async stop(): Promise<void> {
    clearInterval(this.writer);
    clearInterval(this.pruner);
    for (const [symbol, perTimeframe] of this.builders) {
      for (const [timeframe, builder] of perTimeframe) {
        const forming = builder.forming;
        if (forming) this.pending.push({ symbol, timeframe, ...forming });
      }
    }
    await this.writePending();
  }

  /** The candle still forming for a symbol and timeframe (the chart's live last candle). */
  forming(symbol: ChartSymbol, timeframe: Timeframe): Readonly<Candle> | undefined {
    return this.builders.get(symbol)?.get(timeframe)?.forming;
  }

  /** Writes the closed candles still queued (the timer does this every second). */
  writePending(): Promise<void> {
    const write = this.writes.then(() => this.saveBatch());
    this.writes = write.catch(() => {});
    return write;
  }

  private async saveBatch(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    try {
      await this.store.candles.save(batch);
    } catch (error) {
      // Kept for the next tick: a busy or full disk must not lose the minute's candles.
      this.pending = batch.concat(this.pending);
      throw error;
    }
  }

  /** A timer's work failing (disk full, database busy) must not crash the server: warn, retry. */
  private async inBackground(what: string, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      warnEvery(`history-${what}`, 60_000, { err: error }, `history: could not ${what}`);
    }
  }

  /** Every accepted quote while this instance leads (composition.ts wires the hub to it). */
  onUpdate(update: HubUpdate): void {
    const affected = chartSymbolsAffectedBy(update.quote);
    if (affected.length === 0) return;
    const values = chartSymbolValues(update.calculations, update.prices);
    for (const symbol of affected) {
      const value = values[symbol];
      if (value === undefined) continue;
      for (const [timeframe, builder] of this.builders.get(symbol) ?? []) {
        const closed = builder.add(update.quote.ts, value);
        if (closed) this.pending.push({ symbol, timeframe, ...closed });
        if (closed && timeframe === "1m") this.onMinuteClosed?.(symbol, closed);
      }
    }
  }

  private async prune(): Promise<void> {
    await this.store.candles.prune("1m", Date.now() - this.retentionMs);
  }
}
