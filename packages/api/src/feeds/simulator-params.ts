import type { InstrumentId } from "@spreadwatch/core";

/**
 * The simulated market's parameters (docs/simulator.md explains each). Levels are late-2025
 * markets; the numbers are illustrative, chosen so the dashboard, the z column and the bands look
 * like a real desk's — not calibrated to any particular day.
 */

/** The simulated market never closes, so a year is 365 days of 24 hours for annualising. */
export const MINUTES_PER_DAY = 1440;
export const MINUTES_PER_YEAR = 365 * MINUTES_PER_DAY;

/**
 * A price level: log-price = log(level) + a slow Ornstein–Uhlenbeck deviation. Over a month it is
 * a random walk with `annualVol`; over years it stays near `level`, so gold never wanders to 400
 * or 40,000 on a long-running demo box.
 */
export interface LegParams {
  level: number;
  /** Annualised volatility of log returns (calendar year, 24 h trading). */
  annualVol: number;
  /** Common shock it loads on: metals move together, energy together (corr = product of loadings). */
  factor?: "metals" | "energy";
  loading?: number;
}

/** Half-life of a level's pull back to its anchor: long enough to be invisible within a month. */
export const LEVEL_HALF_LIFE_DAYS = 90;

export const LEG_IDS = ["GC", "SI", "HG", "NG", "CL", "USDINR", "NIFTY"] as const;
export type LegId = (typeof LEG_IDS)[number];

export const LEGS: Readonly<Record<LegId, LegParams>> = {
  // Gold: ~15 % a year, the calmest metal; gold and silver correlate ~0.65 (0.8 × 0.8).
  GC: { level: 4050, annualVol: 0.15, factor: "metals", loading: 0.8 },
  // Silver: ~25 %, gold's noisier cousin.
  SI: { level: 50.5, annualVol: 0.25, factor: "metals", loading: 0.8 },
  // Copper: ~20 %, an industrial metal, loosely tied to the precious ones (~0.3).
  HG: { level: 5.05, annualVol: 0.2, factor: "metals", loading: 0.4 },
  // Henry Hub natural gas: ~60 %, weather-driven, the wildest of the five.
  NG: { level: 4.3, annualVol: 0.6, factor: "energy", loading: 0.5 },
  // WTI crude: ~35 %; crude and gas correlate only ~0.25 (0.5 × 0.5).
  CL: { level: 61, annualVol: 0.35, factor: "energy", loading: 0.5 },
  // USDINR: ~4 %, a managed currency (the RBI leans against big moves).
  USDINR: { level: 88.6, annualVol: 0.04 },
  // NIFTY 50: ~14 %, close to India VIX's long-run average.
  NIFTY: { level: 26_000, annualVol: 0.14 },
};

/**
 * An Ornstein–Uhlenbeck deviation dX = θ(μ − X)dt + σ dW, stepped exactly each minute, with
 * θ = ln 2 / half-life and σ = sd·√(2θ) so that `sd` is its stationary standard deviation.
 */
export interface OuParams {
  /** μ: the level it reverts to (the basis), in the spread's unit. */
  mean: number;
  /** √(σ² / 2θ): how far from μ it typically is, in the spread's unit. */
  sd: number;
  halfLifeMinutes: number;
}

export const OU_IDS = ["GC", "SI", "HG", "NG", "CL", "GIFT", "XAU", "XAG"] as const;
export type OuId = (typeof OU_IDS)[number];

/**
 * MCX mid = parity(CME mid) + X, X an OU around the instrument's basis (INR per MCX unit): local
 * demand, the premium or discount bullion dealers quote, and arbitrage that pulls it back within
 * an hour or two. Each basis sits about half an sd from zero, so the BUY and SELL spreads spend
 * a quarter to a third of the time on the far side of zero and cross it several times a day —
 * alerts have something to fire on — yet have a mean of their own for the z-score.
 */
export const MCX_DEVIATIONS: Readonly<Record<InstrumentId, OuParams>> = {
  // GOLD ≈ ₹122,000 / 10 g: a discount of ₹120 ± ₹180 (0.15 %), reverting in an hour.
  GC: { mean: -120, sd: 180, halfLifeMinutes: 60 },
  // SILVER ≈ ₹152,000 / kg: a premium of ₹250 ± ₹600 (0.4 %), quicker to snap back.
  SI: { mean: 250, sd: 600, halfLifeMinutes: 45 },
  // COPPER ≈ ₹990 / kg: ₹2 ± ₹4, slow (thin arbitrage).
  HG: { mean: 2, sd: 4, halfLifeMinutes: 90 },
  // NATURALGAS ≈ ₹380 / mmBtu: −₹1.5 ± ₹3, fast (heavily arbitraged, very liquid).
  NG: { mean: -1.5, sd: 3, halfLifeMinutes: 30 },
  // CRUDEOIL ≈ ₹5,400 / bbl: ₹8 ± ₹15, fast.
  CL: { mean: 8, sd: 15, halfLifeMinutes: 30 },
};

/** GIFT NIFTY − NIFTY 50, points: a futures premium of ~60 ± 25 (carry plus overnight news). */
export const GIFT_PREMIUM: OuParams = { mean: 60, sd: 25, halfLifeMinutes: 90 };

/** CME future − spot, USD/oz: contango of a near-month future (carry ≈ rate × time to expiry). */
export const SPOT_BASIS: Readonly<Record<"XAU" | "XAG", OuParams>> = {
  XAU: { mean: 22, sd: 3, halfLifeMinutes: 120 },
  XAG: { mean: 0.2, sd: 0.05, halfLifeMinutes: 120 },
};

export const OUS: Readonly<Record<OuId, OuParams>> = {
  ...MCX_DEVIATIONS,
  GIFT: GIFT_PREMIUM,
  ...SPOT_BASIS,
};

/**
 * Exchange tick sizes (CME: GC $0.10, SI $0.005, HG $0.0005, NG $0.001, CL $0.01; MCX: GOLD ₹1,
 * SILVER ₹1, COPPER ₹0.05, NATURALGAS ₹0.10, CRUDEOIL ₹1) and typical quoted widths in ticks
 * for liquid front months.
 */
export interface BookParams {
  cmeTick: number;
  cmeWidthTicks: readonly [number, number];
  mcxTick: number;
  mcxWidthTicks: readonly [number, number];
}

export const BOOKS: Readonly<Record<InstrumentId, BookParams>> = {
  GC: { cmeTick: 0.1, cmeWidthTicks: [1, 3], mcxTick: 1, mcxWidthTicks: [3, 15] },
  SI: { cmeTick: 0.005, cmeWidthTicks: [1, 3], mcxTick: 1, mcxWidthTicks: [10, 40] },
  HG: { cmeTick: 0.0005, cmeWidthTicks: [1, 3], mcxTick: 0.05, mcxWidthTicks: [1, 5] },
  NG: { cmeTick: 0.001, cmeWidthTicks: [1, 3], mcxTick: 0.1, mcxWidthTicks: [1, 4] },
  CL: { cmeTick: 0.01, cmeWidthTicks: [1, 2], mcxTick: 1, mcxWidthTicks: [1, 3] },
};

/** Quote ticks of the one-price instruments: spot metals, the indices (0.05 pt), USDINR. */
export const PRICE_TICKS = {
  XAUUSD: 0.01,
  XAGUSD: 0.001,
  NIFTY50: 0.05,
  GIFTNIFTY: 0.05,
  USDINR: 0.0025,
} as const;
