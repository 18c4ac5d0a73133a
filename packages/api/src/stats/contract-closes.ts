import {
  type ChartSymbol,
  chartSymbolAt,
  chartSymbolLegs,
  type Duties,
  emptyPrices,
  forEachAlignedMinute,
  isChartSymbol,
  type MinuteClose,
} from "@spreadwatch/core";
import type { CloseColumns, Store } from "@spreadwatch/db";
import type { StoredCloses } from "./spread-stats-service.ts";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** How long a leg's series read for one window is shared with the next windows' loads. */
const SHARED_MS = 5_000;

/** A spread's statistics' window as `GET /api/spread-stats/:symbol` tells it (docs/history.md). */
export interface StatsCoverage {
  from: number | null;
  to: number | null;
  closes: number;
  /** Each futures leg's key → the exchange contract its past is of (GOLD → GOLD26DECFUT). */
  contracts: Record<string, string>;
}

export interface ContractClosesOptions {
  store: Store;
  duties: Duties;
  /** The contract a key quotes now (the hub's), if any quote named one. */
  contractNow: (key: string) => string | undefined;
  /** Writes what the recorder closed and has not stored yet. */
  flush: () => Promise<void>;
  /** A symbol whose legs' contracts have no stored past: its recorded spread closes. */
  fallback: StoredCloses;
}

/**
 * The 1-minute closes of a built-in chart symbol computed from the past of the contracts its
 * legs quote now (docs/history.md, "Statistics of the contracts held"): each futures leg's own
 * contract series (contract_candles), the others' (USDINR, spot, index) mid series, aligned by
 * core's forEachAlignedMinute and valued with the dashboard's formula. Never a series glued across a
 * roll: after GOLD rolls to February the window is February's own past (recorded or made while
 * it was GOLD@next). The window is `days` calendar days ending at the legs' latest minute.
 */
export class ContractCloses {
  private readonly used = new Map<string, Record<string, string>>();
  private readonly recent = new Map<string, Promise<CloseColumns>>();

  constructor(private readonly options: ContractClosesOptions) {}

  /** The contracts the last load of `symbol` used; undefined when it used none (fallback). */
  contractsOf(symbol: string): Record<string, string> | undefined {
    return this.used.get(symbol);
  }

  readonly closes: StoredCloses = async (symbol, days) => {
    const { store, fallback } = this.options;
    if (!isChartSymbol(symbol)) return fallback(symbol, days);
    await this.options.flush();
    const legs = chartSymbolLegs(symbol);
    const contracts: Record<string, string> = {};
    for (const leg of legs) {
      if (leg.source !== "cme" && leg.source !== "mcx") continue;
      const contract = await this.contractOf(leg.key);
      if (!contract) {
        this.used.delete(symbol);
        return fallback(symbol, days);
      }
      contracts[leg.key] = contract;
    }
    // The window ends where the latest leg's past does; read a minute of slack for the carry.
    const ends = await Promise.all(legs.map((leg) => legEnd(store, leg.key, contracts[leg.key])));
    if (ends.some((end) => end === undefined)) return fallback(symbol, days);
    const to = Math.max(...(ends as number[])) + MINUTE_MS;
    const from = to - days * DAY_MS;
    const series: CloseColumns[] = [];
    for (const leg of legs) series.push(await this.series(leg.key, contracts[leg.key], from, to));
    const out: MinuteClose[] = [];
    const prices = emptyPrices();
    forEachAlignedMinute(series, (timestamp, closes) => {
      const close = chartSymbolAt(symbol as ChartSymbol, legs, closes, this.options.duties, prices);
      if (close !== undefined && Number.isFinite(close)) out.push({ timestamp, close });
    });
    this.used.set(symbol, contracts);
    return out;
  };

  /**
   * A leg's closes in [from, to), shared for a few seconds: the ten spreads' windows are loaded
   * one after another at start and all read USDINR (and BUY and SELL the same legs), so each
   * series is read once, not up to ten times (a first start's peak memory, BENCHMARKS.md).
   */
  private series(
    key: string,
    contract: string | undefined,
    from: number,
    to: number,
  ): Promise<CloseColumns> {
    const id = `${contract ?? key}:${from}:${to}`;
    const cached = this.recent.get(id);
    if (cached) return cached;
    const read = legCloses(this.options.store, key, contract, from, to);
    this.recent.set(id, read);
    const forget = setTimeout(() => this.recent.delete(id), SHARED_MS);
    forget.unref();
    read.catch(() => this.recent.delete(id));
    return read;
  }

  /** The contract a key quotes now, else the one of its stored past quoted last. */
  private async contractOf(key: string): Promise<string | undefined> {
    return legContract(this.options.store, this.options.contractNow, key);
  }
}

/** The contract a key quotes now, else the one its stored past quoted last. */
export async function legContract(
  store: Store,
  contractNow: (key: string) => string | undefined,
  key: string,
): Promise<string | undefined> {
  return contractNow(key) ?? (await store.contractCandles.latestContract(key));
}

/**
 * Where a leg's past ends: its contract's last minute, whichever key quoted it (right after a
 * roll the new contract's past may all be under the @next key: the instance reading it may not
 * be the one recording its first minute as the near), else its mids' last minute.
 */
export async function legEnd(
  store: Store,
  key: string,
  contract: string | undefined,
): Promise<number | undefined> {
  if (contract) return store.contractCandles.lastMinute(contract);
  const [last] = await store.instrumentCandles.recent({ symbol: key, timeframe: "1m", limit: 1 });
  return last?.timestamp;
}

/**
 * A leg's closes in [from, to): its contract's own series, else its mids. Column reads: no
 * object per stored minute of a 20-day window read at every start (a first start's peak memory,
 * docs/operations.md, "The first start").
 */
export function legCloses(
  store: Store,
  key: string,
  contract: string | undefined,
  from: number,
  to: number,
): Promise<CloseColumns> {
  return contract
    ? store.contractCandles.closes(contract, from, to)
    : store.instrumentCandles.closes({ symbol: key, timeframe: "1m", from, to });
}
