import { formatNumber } from "./decimals.ts";
import type { CmeContractKey } from "./lot.ts";

/** ₹1 crore: Indian statutory charges are published per crore (or per lakh) of turnover. */
export const CRORE = 10_000_000;

/**
 * Every rate the round trip is costed with; the api makes them configuration. Fractions are
 * fractions (0.0001 is 0.01 %), money is per order or per contract side.
 */
export interface CostRates {
  /** Brokerage per executed order on an Indian exchange (MCX, NFO, CDS), ₹ (flat fee: ₹20). */
  mcxBrokeragePerOrder: number;
  /** Commodity Transaction Tax on the sell side's turnover (non-agri futures: 0.01 %). */
  cttSellRate: number;
  /** MCX exchange transaction charge, ₹ per crore of turnover, both sides. */
  mcxExchangePerCrore: number;
  /** SEBI turnover fee, ₹ per crore of turnover, both sides. */
  sebiPerCrore: number;
  /** Stamp duty on the buy side's turnover (commodity futures: 0.002 %). */
  stampDutyBuyRate: number;
  /** GST on brokerage + exchange charges + SEBI fee. */
  gstRate: number;
  /** Securities Transaction Tax on an NSE future's sell-side turnover (0.02 %). */
  sttFuturesSellRate: number;
  /** NSE's transaction charge on futures (NFO), ₹ per crore of turnover, both sides. */
  nfoExchangePerCrore: number;
  /** NSE's transaction charge on currency futures (CDS), ₹ per crore of turnover, both sides. */
  cdsExchangePerCrore: number;
  /** Stamp duty on a currency future's buy-side turnover (0.0001 %). */
  cdsStampDutyBuyRate: number;
  /** CME commission + exchange fee + NFA fee per contract per side, USD. */
  cmePerContractPerSideUsd: Record<CmeContractKey, number>;
}

/**
 * Defaults as published at the time of writing (November 2026) — check the current circulars
 * and your brokers' schedules before trading on them:
 * - brokerage ₹20 per order: the flat fee of Indian discount brokers (Zerodha, Upstox, …).
 * - CTT 0.01 % sell side on non-agricultural commodity futures (Finance Act 2013, unchanged).
 * - MCX transaction charge ₹2.10 per lakh of turnover = ₹210 per crore for futures, MCX's
 *   "true to label" circular effective 1 October 2024 (it replaced the slab structure).
 * - SEBI turnover fee ₹10 per crore; stamp duty 0.002 % of the buy side (Indian Stamp Act
 *   as amended from 1 July 2020); GST 18 % on brokerage, exchange and SEBI charges.
 * - NSE futures (NFO): STT 0.02 % of the sell side (Finance (No. 2) Act 2024, from 1 October
 *   2024), NSE transaction charge 0.00173 % = ₹173 per crore, stamp duty 0.002 % of the buy side.
 * - NSE currency futures (CDS): no STT, NSE transaction charge 0.00035 % = ₹35 per crore, stamp
 *   duty 0.0001 % of the buy side.
 * - CME: Interactive Brokers' cost-plus schedule for ≤ 1,000 contracts a month — commission
 *   $0.85 per contract ($0.25 for the E-micro MGC, SIL, MCL) + the Globex non-member exchange
 *   fee IBKR passes on (GC/SI/HG/NG $1.60, CL $1.50, MGC $0.75, SIL $1.00, MHG $0.60,
 *   QG $0.50, MCL $0.50) + NFA $0.02, per side.
 */
export function defaultCostRates(): CostRates {
  return {
    mcxBrokeragePerOrder: 20,
    cttSellRate: 0.0001,
    mcxExchangePerCrore: 210,
    sebiPerCrore: 10,
    stampDutyBuyRate: 0.00002,
    gstRate: 0.18,
    sttFuturesSellRate: 0.0002,
    nfoExchangePerCrore: 173,
    cdsExchangePerCrore: 35,
    cdsStampDutyBuyRate: 0.000001,
    cmePerContractPerSideUsd: {
      GC: 2.47,
      MGC: 1.02,
      SI: 2.47,
      SIL: 1.27,
      HG: 2.47,
      MHG: 1.47,
      NG: 2.47,
      QG: 1.37,
      CL: 2.37,
      MCL: 0.77,
    },
  };
}

/** Each cost line of a round trip in ₹, for the hover/tap tooltip. */
export interface CostBreakdown {
  /** Turnover of both MCX orders (buy + sell at the same price), ₹. */
  mcxTurnover: number;
  brokerage: number;
  exchange: number;
  sebi: number;
  ctt: number;
  /**
   * STT on the sell side of NSE futures legs (NFO). Only there when a leg pays it: the built-in
   * spreads' breakdowns (on every stream message) stay as they were.
   */
  stt?: number;
  stampDuty: number;
  gst: number;
  /** CME commission and fees of both sides, converted at USDINR. */
  cme: number;
  /** The same in USD. */
  cmeUsd: number;
}

/**
 * The cost of opening and closing one MCX position of `units` quote units at `price` (₹ per
 * unit) and `contracts` CME contracts, at today's prices: the exit is costed at the entry price,
 * since the exit price is unknown when the trade is weighed. An MCX round trip is one buy and
 * one sell whichever way the spread is traded, so CTT and stamp duty each apply once. Lines
 * are unrounded; `roundPaise` is for the end.
 */
export function roundTripCosts(
  price: number,
  units: number,
  contract: CmeContractKey,
  contracts: number,
  usdinr: number,
  rates: CostRates,
): CostBreakdown {
  // Turnover is a size: a negative price (crude, April 2020) still costs.
  const side = Math.abs(price * units);
  const mcxTurnover = 2 * side;
  const brokerage = 2 * rates.mcxBrokeragePerOrder;
  const exchange = (mcxTurnover * rates.mcxExchangePerCrore) / CRORE;
  const sebi = (mcxTurnover * rates.sebiPerCrore) / CRORE;
  const cmeUsd = 2 * Math.abs(contracts) * rates.cmePerContractPerSideUsd[contract];
  return {
    mcxTurnover,
    brokerage,
    exchange,
    sebi,
    ctt: side * rates.cttSellRate,
    stampDuty: side * rates.stampDutyBuyRate,
    gst: (brokerage + exchange + sebi) * rates.gstRate,
    cme: cmeUsd * usdinr,
    cmeUsd,
  };
}

/** The sum of a breakdown's charges (turnover and the USD figure are not charges). */
export function totalCosts(b: CostBreakdown): number {
  return b.brokerage + b.exchange + b.sebi + b.ctt + (b.stt ?? 0) + b.stampDuty + b.gst + b.cme;
}

/** Rounded half away from zero on the shortest decimal form (as formatNumber shows it). */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value;
  return roundClearOfHalf(value, decimals) ?? Number(formatNumber(value, decimals));
}

/** 10^0 … 10^20, each exact as a double (parsed, not multiplied). */
const POWERS_OF_TEN = Array.from({ length: 21 }, (_, n) => Number(`1e${n}`));
/** Largest |value|·10^decimals taken without the digit string (its units stay far below 2^53). */
const SCALED_LIMIT = 1e12;
/**
 * How near .5, relative to the product, still goes to the digit string: the product is within
 * 1.5 units in the last place (3.4e-16 of itself) of the shortest decimal form's, thirty times less.
 */
const NEAR_HALF_RELATIVE = 1e-14;

/**
 * roundTo's result from the binary value alone, when the value is clearly not a half: the
 * product |value|·10^decimals is within 1.5 units in the last place of the shortest decimal
 * form's (half a unit from the value's own rounding, one from the product's), so when it is
 * further than that from .5 both round the same way; and integer / 10^decimals (both exact) is
 * the double that reading the rounded digits gives. Every streamed frame rounds ~14 per-lot
 * figures a spread it carries: ~40 ns a number here against ~600 on the digit string
 * (BENCHMARKS.md §46). Undefined near a half, for large values and for decimals that are not
 * 0…20: the digit string decides.
 */
function roundClearOfHalf(value: number, decimals: number): number | undefined {
  const scale = POWERS_OF_TEN[decimals];
  if (scale === undefined) return undefined;
  const scaled = Math.abs(value) * scale;
  if (!(scaled < SCALED_LIMIT)) return undefined;
  const whole = Math.floor(scaled);
  const fraction = scaled - whole;
  if (Math.abs(fraction - 0.5) <= scaled * NEAR_HALF_RELATIVE) return undefined;
  const units = fraction > 0.5 ? whole + 1 : whole;
  // As the digit string reads back: a value that rounds to zero has no sign.
  if (units === 0) return 0;
  return value < 0 ? -units / scale : units / scale;
}

/** Rounded to paise: the one rounding of every rupee figure, at the end. */
export function roundPaise(value: number): number {
  return roundTo(value, 2);
}
