import {
  aggregateCandles,
  applyQuote,
  bucketStart,
  type Candle,
  emptyPrices,
  type InstrumentSpec,
  type Quote,
  TIMEFRAMES,
} from "@spreadwatch/core";
import type { Store, StoredCandle } from "@spreadwatch/db";
import { log } from "../log.ts";
import { addLegMid, BACKFILL_DAYS, type LegMinutes, writeContractMinutes } from "./backfill.ts";
import { ContractMinutes } from "./contract-minutes.ts";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/**
 * Moments worked out between two turns of the event loop, so the hub keeps taking quotes: a few
 * ms of the simulator's work (a month of one instrument is ~130,000 moments, ~1 s in all).
 */
const MOMENTS_PER_TURN = 100;
/**
 * Instruments made in one pass over the past: many put in use at once (a leader start after an
 * upgrade) cost passes, not memory.
 */
const KEYS_PER_PASS = 4;

/** A feed's past of some instruments (Feed.historyOf). */
export type InstrumentHistory = (
  instruments: readonly InstrumentSpec[],
  from: number,
  to: number,
) => Iterable<Quote[]>;

export interface LegBackfillOptions {
  /** How far back: the history window, never past what the recorder keeps. */
  retentionMs: number;
  /** Told which keys got a past, once it is stored (statistics loaded before it are stale). */
  onFilled?: (keys: ReadonlySet<string>) => void;
  now?: () => number;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The past of an instrument put in use while the server runs (an admin's add, a definition's
 * leg): one-minute mid candles of it for the history window, from a feed that can make them
 * (the simulator), so a new definition on it has a chart and statistics at once
 * (docs/formulas.md, "History from the legs"). Only the time before the instrument's first
 * stored minute is filled, up to the minute it came into use; the recorder has the rest. The
 * work is done a slice at a time, and one instrument set after another.
 */
export class LegHistoryBackfill {
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly history: InstrumentHistory | undefined,
    private readonly options: LegBackfillOptions,
  ) {}

  /** Fills the past of those of `instruments` that lack it; resolves when done. */
  fill(instruments: readonly InstrumentSpec[]): Promise<void> {
    const history = this.history;
    if (!history || instruments.length === 0) return this.queue;
    const next = this.queue.then(() => this.fillNow(history, instruments));
    this.queue = next.catch((error) => {
      // The next put-in-use or leader start tries again: a key with no past is filled then.
      log.warn({ err: error }, "could not backfill the history of instruments put in use");
    });
    return this.queue;
  }

  /** Stops between slices (the leader steps down); what was not stored is filled next time. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.queue;
  }

  private async fillNow(history: InstrumentHistory, instruments: readonly InstrumentSpec[]) {
    const now = (this.options.now ?? Date.now)();
    const to = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    const from = to - Math.min(BACKFILL_DAYS * DAY_MS, this.options.retentionMs);
    // Each key's gap ends at its first stored minute; a key with the whole window has none.
    const ends = new Map<string, { spec: InstrumentSpec; end: number; stored: boolean }>();
    for (const spec of instruments) {
      const first = await this.store.instrumentCandles.first(spec.key, "1m");
      const end = Math.min(to, first?.timestamp ?? to);
      if (end - from >= MINUTE_MS) ends.set(spec.key, { spec, end, stored: first !== undefined });
    }
    // A few keys a pass: a month of minutes is ~43,000 candles a key, held until written.
    const gaps = [...ends.values()];
    for (let i = 0; i < gaps.length && !this.stopped; i += KEYS_PER_PASS)
      await this.pass(
        history,
        from,
        new Map(gaps.slice(i, i + KEYS_PER_PASS).map((g) => [g.spec.key, g])),
      );
  }

  /** One history pass over `ends`' keys: their candles made, written, and announced. */
  private async pass(
    history: InstrumentHistory,
    from: number,
    ends: ReadonlyMap<string, { spec: InstrumentSpec; end: number; stored: boolean }>,
  ): Promise<void> {
    const started = performance.now();
    const legs: LegMinutes = new Map();
    // Each contract's own minutes too, as a first start writes them: the statistics of a spread
    // on the key read its contract's past (docs/history.md), not the key's mids.
    const contracts = new ContractMinutes();
    const prices = emptyPrices();
    const until = Math.max(...[...ends.values()].map((e) => e.end));
    let moments = 0;
    for (const quotes of history(
      [...ends.values()].map((e) => e.spec),
      from,
      until,
    )) {
      for (const quote of quotes) {
        const end = ends.get(quote.key)?.end;
        if (end === undefined || quote.ts >= end || !applyQuote(prices, quote)) continue;
        const mid = addLegMid(legs, prices, quote.key, quote.ts);
        if (quote.contract && mid !== undefined)
          contracts.add(quote.key, quote.contract, quote.ts, mid);
      }
      if (++moments % MOMENTS_PER_TURN === 0) {
        await turn();
        if (this.stopped) return;
      }
    }
    // The last minute (still forming in the builder) is whole: it ends where the gap does.
    const series = new Map<string, Candle[]>();
    for (const [key, leg] of legs)
      series.set(key, leg.builder.forming ? [...leg.minutes, leg.builder.forming] : leg.minutes);
    // The contracts' minutes first: the next fill measures its gap on the key's minutes, so a
    // stop or a crash between the two writes must leave those absent, not the contracts' (their
    // writes fill only absent minutes, so doing them again is harmless). Feed.historyOf is a
    // made past (only the simulator has one): "simulated", as a first start's.
    await writeContractMinutes(this.store, contracts.drain(true), "simulated", turn);
    if (this.stopped) return;
    const minutes = await this.save(series, ends);
    if (this.stopped || minutes === 0) return;
    const keys = new Set(legs.keys());
    log.info(
      {
        keys: [...keys],
        minutes,
        seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
      },
      "backfilled the history of instruments put in use",
    );
    this.options.onFilled?.(keys);
  }

  /**
   * Writes each key's minutes and the candles of every timeframe made of them, a day (IST) at
   * a time, newest first, a turn of the event loop between: a month of one instrument in one go
   * (~260,000 candles, made and written) would hold the loop ~0.7 s. A day holds whole buckets
   * of every timeframe, so no bucket is written in two parts; and newest first, so a write cut
   * short leaves a key's past ending at its stored minutes, where the next fill carries on.
   * Returns how many minutes it wrote.
   */
  private async save(
    series: ReadonlyMap<string, readonly Candle[]>,
    ends: ReadonlyMap<string, { end: number; stored: boolean }>,
  ): Promise<number> {
    const days = new Map<number, Map<string, Candle[]>>();
    for (const [key, minutes] of series) {
      for (const minute of minutes) {
        const day = bucketStart(minute.timestamp, "1d") ?? minute.timestamp;
        let byKey = days.get(day);
        if (!byKey) {
          byKey = new Map();
          days.set(day, byKey);
        }
        const rows = byKey.get(key);
        if (rows) rows.push(minute);
        else byKey.set(key, [minute]);
      }
    }
    let written = 0;
    for (const day of [...days.keys()].sort((a, b) => b - a)) {
      if (this.stopped) return written;
      const rows: StoredCandle[] = [];
      for (const [key, minutes] of days.get(day) ?? []) {
        const { end, stored } = ends.get(key) ?? { end: 0, stored: false };
        for (const timeframe of TIMEFRAMES) {
          // The store merges a bucket written twice in the order written (open kept, close
          // moved on). A bucket the recorder writes later (the hour the instrument came into
          // use) merges right; one it wrote already (a key with a stored past) would get the
          // older close, so that one is left as it is.
          const skip = stored && timeframe !== "1m" ? bucketStart(end, timeframe) : undefined;
          const candles = timeframe === "1m" ? minutes : aggregateCandles(minutes, timeframe);
          for (const candle of candles)
            if (candle.timestamp !== skip) rows.push({ symbol: key, timeframe, ...candle });
        }
        written += minutes.length;
      }
      await this.store.instrumentCandles.save(rows);
      await turn();
    }
    return written;
  }
}
