import {
  CHART_SYMBOLS,
  type ChartSymbol,
  DEFAULT_STATS_DAYS,
  RollingSpreadStats,
  type STATS_DAYS,
} from "@spreadwatch/core";

export type StatsDays = (typeof STATS_DAYS)[number];

/** One 1-minute close: the candle's open time and its close. */
export interface MinuteClose {
  timestamp: number;
  close: number;
}

/**
 * Reads a symbol's stored 1-minute closes for a window of `days` ending at its latest candle,
 * oldest first. Async so that the store behind it may be (docs/issues/11.md's async port).
 */
export type StoredCloses = (symbol: ChartSymbol, days: number) => Promise<readonly MinuteClose[]>;

/** The `market.stats` answer (docs/issues/12.md §2); null where a figure cannot be computed. */
export interface SpreadStatsAnswer {
  symbol: ChartSymbol;
  days: StatsDays;
  n: number;
  value: number | null;
  mean: number | null;
  std: number | null;
  z: number | null;
  percentile: number | null;
  min: number | null;
  max: number | null;
  from: number | null;
  to: number | null;
}

/**
 * `market.statsAll`'s entry: the answer plus the 0th..100th percentiles of the window's closes
 * (101 values, nearest rank), so a browser judges a percentile alert as the server does; null
 * while the window is empty.
 */
export interface SpreadStatsWithQuantiles extends SpreadStatsAnswer {
  quantiles: number[] | null;
}

/** The statistics an alert can compare its threshold with, besides the spread itself. */
export type LiveMetric = "zscore" | "percentile";

type Windows = Map<ChartSymbol, RollingSpreadStats>;

/**
 * Rolling statistics of every chart symbol, kept current as 1-minute candles close, so a
 * question costs O(log n) rather than a scan. The default window is loaded at start; the
 * others (5 and 60 days) only when first asked, since a 60-day window of all symbols holds
 * ~38 MB. Closes that arrive while a window loads are kept and applied after it, so none is
 * lost between the read and the switch-over.
 */
export class SpreadStatsService {
  private readonly windows = new Map<number, Windows>();
  private readonly loading = new Map<number, Promise<Windows>>();
  private readonly arrivedWhileLoading = new Map<number, Array<[ChartSymbol, MinuteClose]>>();

  constructor(private readonly storedCloses: StoredCloses) {}

  /** Loads the default window from the stored candles. */
  async start(): Promise<void> {
    await this.windowsFor(DEFAULT_STATS_DAYS);
  }

  /** The recorder's hook: a 1-minute candle of `symbol` opened at `timestamp` closed at `close`. */
  minuteClosed(symbol: ChartSymbol, timestamp: number, close: number): void {
    for (const windows of this.windows.values()) windows.get(symbol)?.add(timestamp, close);
    for (const arrived of this.arrivedWhileLoading.values())
      arrived.push([symbol, { timestamp, close }]);
  }

  /** The window's statistics with `value` (the live spread; undefined when not computable). */
  async stats(
    symbol: ChartSymbol,
    days: StatsDays,
    value: number | undefined,
  ): Promise<SpreadStatsAnswer> {
    const windows = await this.windowsFor(days);
    const live = value !== undefined && Number.isFinite(value) ? value : null;
    const s = windows.get(symbol)?.stats(live ?? Number.NaN) ?? { n: 0 };
    return {
      symbol,
      days,
      n: s.n,
      value: live,
      mean: s.mean ?? null,
      std: s.std ?? null,
      z: s.z ?? null,
      percentile: s.percentile ?? null,
      min: s.min ?? null,
      max: s.max ?? null,
      from: s.from ?? null,
      to: s.to ?? null,
    };
  }

  /** The answer of `stats` with the window's 101 percentiles. */
  async statsWithQuantiles(
    symbol: ChartSymbol,
    days: StatsDays,
    value: number | undefined,
  ): Promise<SpreadStatsWithQuantiles> {
    const answer = await this.stats(symbol, days, value);
    const windows = await this.windowsFor(days);
    return { ...answer, quantiles: windows.get(symbol)?.quantiles() ?? null };
  }

  /**
   * The live z-score or percentile rank of `value` in the default (20-day) window, exact, for
   * the alert engine: synchronous and O(log n). Undefined while the window is not loaded, is
   * empty, or (z-score) has no spread (std 0): then the metric has no value and nothing fires.
   */
  liveMetric(symbol: ChartSymbol, metric: LiveMetric, value: number): number | undefined {
    const window = this.windows.get(DEFAULT_STATS_DAYS)?.get(symbol);
    if (!window || window.size === 0 || !Number.isFinite(value)) return undefined;
    const s = window.stats(value);
    return metric === "zscore" ? s.z : s.percentile;
  }

  private windowsFor(days: number): Promise<Windows> | Windows {
    const ready = this.windows.get(days);
    if (ready) return ready;
    let loading = this.loading.get(days);
    if (!loading) {
      loading = this.load(days).finally(() => this.loading.delete(days));
      this.loading.set(days, loading);
    }
    return loading;
  }

  private async load(days: number): Promise<Windows> {
    const arrived: Array<[ChartSymbol, MinuteClose]> = [];
    this.arrivedWhileLoading.set(days, arrived);
    try {
      const windows: Windows = new Map();
      for (const symbol of CHART_SYMBOLS) {
        const window = new RollingSpreadStats(days);
        for (const { timestamp, close } of await this.storedCloses(symbol, days))
          window.add(timestamp, close);
        windows.set(symbol, window);
      }
      for (const [symbol, { timestamp, close }] of arrived)
        windows.get(symbol)?.add(timestamp, close);
      this.windows.set(days, windows);
      return windows;
    } finally {
      this.arrivedWhileLoading.delete(days);
    }
  }
}
