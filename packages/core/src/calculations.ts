import { type Duties, INSTRUMENTS, type InstrumentId, instrument } from "./instrument.ts";
import type { PerLot } from "./per-lot.ts";
import type { Prices, SpotKey } from "./prices.ts";
import type { Quote } from "./quote.ts";
import { buySpread, indexSpread, mid, sellSpread, spotSpread } from "./spread.ts";
import { parseSpreadSymbol, SPREAD_SYMBOLS, type SpreadSymbol } from "./symbol.ts";

export interface CalculationEntry {
  symbol: SpreadSymbol;
  spread: number;
  cme: number;
  mcx: number;
  parity: number;
  usdinr: number;
  /**
   * One standard lot in ₹ after costs (docs/formulas.md, "Net / lot"); the hub adds it with
   * `withPerLot`.
   */
  perLot?: PerLot;
}

/** The `GET /api/calculations` shape: one entry per computable symbol, plus `timestamp`. */
export type Calculations = { [S in SpreadSymbol]?: CalculationEntry } & {
  timestamp: number | null;
};

export function calculateSymbol(
  symbol: SpreadSymbol,
  prices: Prices,
  duties: Duties,
): CalculationEntry | undefined {
  const { id, side } = parseSpreadSymbol(symbol);
  const inst = instrument(id);
  const cme = prices.cme[inst.cmeKey];
  const mcx = prices.mcx[inst.mcxKey];
  const usdinr = prices.fx.USDINR?.price;
  if (!cme || !mcx || usdinr === undefined) return undefined;
  const leg = (side === "BUY" ? buySpread : sellSpread)(cme, mcx, inst, usdinr, duties[id]);
  return leg && { symbol, ...leg, usdinr };
}

export function calculateAll(prices: Prices, duties: Duties): Calculations {
  const calculations: Calculations = { timestamp: prices.timestamp };
  for (const symbol of SPREAD_SYMBOLS) {
    const entry = calculateSymbol(symbol, prices, duties);
    if (entry) calculations[symbol] = entry;
  }
  return calculations;
}

const SYMBOLS_BY_INSTRUMENT = new Map<string, SpreadSymbol[]>(
  INSTRUMENTS.flatMap((inst) => {
    const symbols: SpreadSymbol[] = [`${inst.id}_BUY`, `${inst.id}_SELL`];
    return [
      [`cme:${inst.cmeKey}`, symbols],
      [`mcx:${inst.mcxKey}`, symbols],
    ];
  }),
);

/** The spread symbols whose value can change when this quote arrives. */
export function symbolsAffectedBy(quote: Pick<Quote, "source" | "key">): readonly SpreadSymbol[] {
  // USDINR feeds every parity; any other fx key is one applyQuote rejects, so it moves nothing.
  if (quote.source === "fx") return quote.key === "USDINR" ? SPREAD_SYMBOLS : [];
  return SYMBOLS_BY_INSTRUMENT.get(`${quote.source}:${quote.key}`) ?? [];
}

export interface SpotSpreadRow {
  id: Extract<InstrumentId, "GC" | "SI">;
  name: string;
  spotKey: SpotKey;
  spread?: number;
  future?: number;
  spot?: number;
}

const SPOT_PAIRS = [
  { id: "GC", spotKey: "XAUUSD" },
  { id: "SI", spotKey: "XAGUSD" },
] as const;

/** Spot spread rows (Gold, Silver) for which a spot price exists. */
export function spotSpreadRows(prices: Prices): SpotSpreadRow[] {
  return SPOT_PAIRS.filter(({ spotKey }) => prices.spot[spotKey] !== undefined).map(
    ({ id, spotKey }) => {
      const future = prices.cme[id] && mid(prices.cme[id]);
      const spot = prices.spot[spotKey]?.price;
      const spread = prices.cme[id] && spotSpread(prices.cme[id], spot);
      return {
        id,
        name: instrument(id).name,
        spotKey,
        ...(spread !== undefined && { spread }),
        ...(future !== undefined && { future }),
        ...(spot !== undefined && { spot }),
      };
    },
  );
}

export interface IndexSpreadRow {
  spread: number;
  future: number;
  spot: number;
}

/** GIFT NIFTY vs NIFTY 50, or undefined unless both prices exist. */
export function indexSpreadRow(prices: Prices): IndexSpreadRow | undefined {
  const future = prices.zerodha.giftnifty?.price;
  const spot = prices.zerodha.nifty50?.price;
  const spread = indexSpread(future, spot);
  if (spread === undefined || future === undefined || spot === undefined) return undefined;
  return { spread, future, spot };
}
