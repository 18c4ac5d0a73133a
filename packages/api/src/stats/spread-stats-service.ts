import {
  CHART_SYMBOLS,
  type ChartSymbol,
  CompactSpreadStats,
  chartSymbolLegs,
  DEFAULT_STATS_DAYS,
  isChartSymbol,
  RollingSpreadStats,
  type SpreadStats,
  type STATS_DAYS,
} from "@spreadwatch/core";
import { log } from "../log.ts";
import type { SpreadChange, SpreadRegistry } from "../spreads/registry.ts";

export type StatsDays = (typeof STATS_DAYS)[number];

/** One 1-minute close: the candle's open time and its close. */
export interface MinuteClose {
  timestamp: number;
  close: number;
}

/**
 * Reads a symbol's stored 1-minute closes for a window of `days` ending at its latest candle,
 * oldest first. Async so that the store behind it may be (the PostgreSQL adapter's is:
 * docs/architecture.md, "Storage").
 */
export type StoredCloses = (symbol: string, days: number) => Promise<readonly MinuteClose[]>;

/**
 * The `market.stats` answer (docs/http-api.md, "Per lot and spread statistics"); null where a
 * figure cannot be computed.
 */
export interface SpreadStatsAnswer {
  /** A chart symbol (GC_BUY, NIFTY) or a user definition's side (SP7_BUY). */
  symbol: string;
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
  /**
   * What the window covers and the contracts it is of (none for a recorded series); `loading`
   * while more of its past is on the way (the first start's backfill, a provider's fetch of a
   * leg, or the window being read again after one: docs/history.md, "The first start").
   */
  coverage: {
    from: number | null;
    to: number | null;
    /**
     * The open time of the oldest close in the window (null while empty, and for a user
     * spread's side, whose window keeps no times): how far back the stored past reaches.
     */
    first: number | null;
    closes: number;
    contracts: Record<string, string>;
    loading: boolean;
  };
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

/** The users' own spreads: which symbols are theirs, and their closes (leg history, then own). */
export interface OwnSpreadStatsOptions {
  spreads: Pick<SpreadRegistry, "executable">;
  closes: StoredCloses;
  /** The contracts a side's window was read from (stats/definition-contract-closes.ts). */
  contractsOf?: (symbol: string) => Record<string, string> | undefined;
}

/** A user definition side's window: loading, or loaded (closes that came meanwhile kept). */
interface OwnWindow {
  stats?: CompactSpreadStats;
  loading?: Promise<CompactSpreadStats>;
  arrived: MinuteClose[];
}

/**
 * Windows other than the default (5 and 60 days) of the users' spreads kept at once; the least
 * recently asked goes first. The default windows stay (alerts read them on every quote).
 */
const MAX_OTHER_OWN_WINDOWS = 200;

function answerOf(
  symbol: string,
  days: StatsDays,
  live: number | null,
  s: SpreadStats,
  contracts: Record<string, string> = {},
  loading = false,
  first: number | undefined = undefined,
): SpreadStatsAnswer {
  return {
    coverage: {
      from: s.from ?? null,
      to: s.to ?? null,
      first: first ?? null,
      closes: s.n,
      contracts,
      loading,
    },
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

/** The chart symbols with a leg on one of `keys`. */
const symbolsOn = (keys: ReadonlySet<string>): ChartSymbol[] =>
  CHART_SYMBOLS.filter((symbol) => chartSymbolLegs(symbol).some((leg) => keys.has(leg.key)));

/** Resolves on the event loop's next turn, after the I/O (requests) already waiting. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const liveOf = (value: number | undefined) =>
  value !== undefined && Number.isFinite(value) ? value : null;

/**
 * Rolling statistics of every chart symbol, kept current as 1-minute candles close, so a
 * question costs O(log n) rather than a scan. The default window is loaded at start; the
 * others (5 and 60 days) only when first asked, since a 60-day window of all symbols holds
 * ~38 MB. Closes that arrive while a window loads are kept and applied after it, so none is
 * lost between the read and the switch-over.
 *
 * The users' own spreads (SP7_BUY …) get the same answers from CompactSpreadStats (a percentile
 * within 0.42 points, ~1/18 of the memory: docs/formulas.md, "Statistics"), each side's window
 * loaded when first asked, from its legs' history before its first live minute.
 */
export class SpreadStatsService {
  private readonly windows = new Map<number, Windows>();
  private readonly loading = new Map<number, Promise<Windows>>();
  private readonly arrivedWhileLoading = new Map<number, Array<[ChartSymbol, MinuteClose]>>();
  /** `${days}:${symbol}` → a user definition side's window. */
  private readonly own = new Map<string, OwnWindow>();
  /** Chart symbols whose windows are being read again after a leg's contract rolled. */
  private readonly reloading = new Map<ChartSymbol, Promise<void>>();
  /** Closes of a symbol that arrived while its windows are read again after a fetched past. */
  private readonly arrivedBySymbol = new Map<ChartSymbol, Set<MinuteClose[]>>();
  /**
   * Chart symbols a past was added for whose windows are not all read again yet: marked at once
   * when told, so an answer never says "loaded" with the window from before the past landed.
   */
  private readonly rereadDue = new Map<ChartSymbol, number>();

  constructor(
    private readonly storedCloses: StoredCloses,
    private readonly ownSpreads?: OwnSpreadStatsOptions,
    /** The contracts a chart symbol's window was read from (stats/contract-closes.ts). */
    private readonly contractsOf: (symbol: string) => Record<string, string> | undefined = () =>
      undefined,
  ) {}

  /**
   * A definition changed in the registry (the composition root hands its changes over): a
   * changed recipe (its candles were deleted) or a deleted spread is asked again from the store.
   */
  spreadsChanged({ changed, removed }: Pick<SpreadChange, "changed" | "removed">): void {
    const gone = new Set(
      [...changed, ...removed].flatMap((s) => [`${s.symbol}_BUY`, `${s.symbol}_SELL`]),
    );
    for (const key of [...this.own.keys()])
      if (gone.has(key.slice(key.indexOf(":") + 1))) this.own.delete(key);
  }

  /** Loads the default window from the stored candles. */
  async start(): Promise<void> {
    await this.windowsFor(DEFAULT_STATS_DAYS);
  }

  /**
   * Instruments got a past (history/leg-backfill.ts, history/provider-history.ts): the windows of
   * the spreads on them are read again — only those, a symbol a turn of the event loop, the loaded
   * windows answering meanwhile — and the windows of the users' spreads on them, loaded before it
   * was stored, are asked again from the store on their next use. Reading every spread's window
   * at once held the loop for seconds after an instrument was put in use (docs/history.md).
   */
  legHistoryAdded(keys: ReadonlySet<string>): void {
    const symbols = symbolsOn(keys);
    if (symbols.length > 0) {
      for (const symbol of symbols)
        this.rereadDue.set(symbol, (this.rereadDue.get(symbol) ?? 0) + 1);
      const left = new Set(symbols);
      this.reloadChartWindows(symbols, (symbol) => {
        left.delete(symbol);
        this.rereadDone(symbol);
      })
        .catch((error) => log.warn({ err: error }, "could not reload the statistics"))
        .finally(() => {
          for (const symbol of left) this.rereadDone(symbol);
        });
    }
    this.forgetOwnWindowsOn(keys);
  }

  private rereadDone(symbol: ChartSymbol): void {
    const due = (this.rereadDue.get(symbol) ?? 1) - 1;
    if (due > 0) this.rereadDue.set(symbol, due);
    else this.rereadDue.delete(symbol);
  }

  /** The users' spreads' windows on `keys`, asked again from the store on their next use. */
  private forgetOwnWindowsOn(keys: ReadonlySet<string>): void {
    const spreads = this.ownSpreads?.spreads;
    if (!spreads) return;
    for (const key of [...this.own.keys()]) {
      const legs = spreads.executable(key.slice(key.indexOf(":") + 1))?.spread.legs ?? [];
      if (legs.some((leg) => keys.has(leg.instrument))) this.own.delete(key);
    }
  }

  /**
   * `symbols`' windows of every loaded length read again from the store (a fetched past was
   * written under them: history/spread-past.ts). Each replaces the loaded one once read, with
   * the closes that arrived meanwhile applied.
   */
  private async reloadChartWindows(
    symbols: readonly ChartSymbol[],
    read: (symbol: ChartSymbol) => void,
  ): Promise<void> {
    for (const symbol of symbols) {
      for (const days of [...this.windows.keys()]) {
        await nextTurn();
        const arrived: MinuteClose[] = [];
        const pending = this.arrivedBySymbol.get(symbol) ?? new Set<MinuteClose[]>();
        this.arrivedBySymbol.set(symbol, pending);
        pending.add(arrived);
        try {
          const window = await this.readWindow(symbol, days);
          for (const { timestamp, close } of arrived) window.add(timestamp, close);
          this.windows.get(days)?.set(symbol, window);
        } finally {
          pending.delete(arrived);
          if (pending.size === 0) this.arrivedBySymbol.delete(symbol);
        }
      }
      read(symbol);
    }
  }

  /**
   * Keys quote another contract now (a roll; instruments/roll-recorder.ts, synchronously, before
   * the alert engine hears the quote): the windows of the spreads on them move to the new
   * contracts' own past (docs/history.md). Until they are read again the live metric has no
   * value, so no alert judges the new contract's price against the old contract's past.
   */
  contractRolled(keys: ReadonlySet<string>): void {
    this.forgetOwnWindowsOn(keys);
    for (const symbol of symbolsOn(keys)) {
      const reload: Promise<void> = this.reloadSymbol(symbol)
        .catch((error) =>
          log.warn({ err: error, symbol }, "could not reload a spread's statistics"),
        )
        .finally(() => {
          if (this.reloading.get(symbol) === reload) this.reloading.delete(symbol);
        });
      this.reloading.set(symbol, reload);
    }
  }

  /** Resolves once every window read again after a roll is in place (tests). */
  async settled(): Promise<void> {
    while (this.reloading.size > 0) await Promise.all(this.reloading.values());
  }

  private async reloadSymbol(symbol: ChartSymbol): Promise<void> {
    for (const [days, windows] of this.windows)
      windows.set(symbol, await this.readWindow(symbol, days));
  }

  /** A chart symbol's window of `days` as stored. */
  private async readWindow(symbol: ChartSymbol, days: number): Promise<RollingSpreadStats> {
    const window = new RollingSpreadStats(days);
    for (const { timestamp, close } of await this.storedCloses(symbol, days))
      window.add(timestamp, close);
    return window;
  }

  /** The recorder's hook: a 1-minute candle of `symbol` opened at `timestamp` closed at `close`. */
  minuteClosed(symbol: string, timestamp: number, close: number): void {
    if (!isChartSymbol(symbol)) {
      for (const days of [DEFAULT_STATS_DAYS, 5, 60]) {
        const window = this.own.get(`${days}:${symbol}`);
        if (window?.stats) window.stats.add(timestamp, close);
        else window?.arrived.push({ timestamp, close });
      }
      return;
    }
    for (const windows of this.windows.values()) windows.get(symbol)?.add(timestamp, close);
    for (const arrived of this.arrivedWhileLoading.values())
      arrived.push([symbol, { timestamp, close }]);
    for (const arrived of this.arrivedBySymbol.get(symbol) ?? [])
      arrived.push({ timestamp, close });
  }

  /** The window's statistics with `value` (the live spread; undefined when not computable). */
  async stats(
    symbol: string,
    days: StatsDays,
    value: number | undefined,
  ): Promise<SpreadStatsAnswer> {
    const live = liveOf(value);
    if (!isChartSymbol(symbol)) {
      const window = await this.ownWindow(symbol, days);
      return answerOf(
        symbol,
        days,
        live,
        window?.stats(live ?? Number.NaN) ?? { n: 0 },
        window ? this.ownSpreads?.contractsOf?.(symbol) : undefined,
      );
    }
    await this.reloading.get(symbol);
    const windows = await this.windowsFor(days);
    const window = windows.get(symbol);
    return answerOf(
      symbol,
      days,
      live,
      window?.stats(live ?? Number.NaN) ?? { n: 0 },
      this.contractsOf(symbol),
      this.rereadDue.has(symbol),
      window?.first,
    );
  }

  /** The answer of `stats` with the window's 101 percentiles. */
  async statsWithQuantiles(
    symbol: string,
    days: StatsDays,
    value: number | undefined,
  ): Promise<SpreadStatsWithQuantiles> {
    const answer = await this.stats(symbol, days, value);
    if (!isChartSymbol(symbol)) {
      const window = await this.ownWindow(symbol, days);
      return { ...answer, quantiles: window?.quantiles() ?? null };
    }
    const windows = await this.windowsFor(days);
    return { ...answer, quantiles: windows.get(symbol)?.quantiles() ?? null };
  }

  /**
   * The live z-score or percentile rank of `value` in the default (20-day) window, exact, for
   * the alert engine: synchronous and O(log n). Undefined while the window is not loaded, is
   * empty, or (z-score) has no spread (std 0): then the metric has no value and nothing fires.
   */
  liveMetric(symbol: string, metric: LiveMetric, value: number): number | undefined {
    if (!isChartSymbol(symbol)) {
      const own = this.own.get(`${DEFAULT_STATS_DAYS}:${symbol}`);
      // Not asked yet: load it now (an alert's first quotes pass without a value, as at start).
      // A failed load leaves no window, so the next quote asks again: nothing to report here.
      if (!own) void this.ownWindow(symbol, DEFAULT_STATS_DAYS).catch(() => undefined);
      const stats = own?.stats;
      if (!stats || stats.size === 0 || !Number.isFinite(value)) return undefined;
      const s = stats.stats(value);
      return metric === "zscore" ? s.z : s.percentile;
    }
    if (this.reloading.has(symbol)) return undefined;
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
        // A symbol a turn: the store's reads are synchronous on SQLite, and the server answers
        // requests between them (a restart's first read of every window took seconds).
        await nextTurn();
        windows.set(symbol, await this.readWindow(symbol, days));
      }
      for (const [symbol, { timestamp, close }] of arrived)
        windows.get(symbol)?.add(timestamp, close);
      this.windows.set(days, windows);
      return windows;
    } finally {
      this.arrivedWhileLoading.delete(days);
    }
  }

  /**
   * A user definition side's window, loaded on first ask; undefined for a symbol that is no user
   * definition's (the caller has checked who may see it).
   */
  private async ownWindow(
    symbol: string,
    days: StatsDays,
  ): Promise<CompactSpreadStats | undefined> {
    if (!this.ownSpreads?.spreads.executable(symbol)) return undefined;
    const key = `${days}:${symbol}`;
    let window = this.own.get(key);
    if (window && days !== DEFAULT_STATS_DAYS) {
      // Most recently asked last: the first in the map is the one to let go.
      this.own.delete(key);
      this.own.set(key, window);
    }
    if (window?.stats) return window.stats;
    if (!window) {
      const created: OwnWindow = { arrived: [] };
      created.loading = this.loadOwn(symbol, days, created);
      window = created;
      this.own.set(key, window);
      this.trimOwn();
    }
    return window.loading;
  }

  private async loadOwn(symbol: string, days: StatsDays, window: OwnWindow) {
    try {
      const stats = new CompactSpreadStats(days);
      for (const { timestamp, close } of await (this.ownSpreads as OwnSpreadStatsOptions).closes(
        symbol,
        days,
      ))
        stats.add(timestamp, close);
      for (const { timestamp, close } of window.arrived) stats.add(timestamp, close);
      window.arrived = [];
      window.stats = stats;
      return stats;
    } catch (error) {
      // Asked again later rather than remembered as failed.
      if (this.own.get(`${days}:${symbol}`) === window) this.own.delete(`${days}:${symbol}`);
      log.warn({ err: error, symbol }, "could not load a spread's statistics");
      throw error;
    } finally {
      window.loading = undefined;
    }
  }

  private trimOwn(): void {
    let others = 0;
    for (const key of this.own.keys()) if (!key.startsWith(`${DEFAULT_STATS_DAYS}:`)) others++;
    for (const key of [...this.own.keys()]) {
      if (others <= MAX_OTHER_OWN_WINDOWS) break;
      if (key.startsWith(`${DEFAULT_STATS_DAYS}:`)) continue;
      this.own.delete(key);
      others--;
    }
  }
}
