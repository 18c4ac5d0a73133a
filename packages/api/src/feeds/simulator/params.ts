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
  /**
   * Several common shocks at once (the base metals: the metals factor, copper's own shock and a
   * base-metals factor); corr of two legs = the sum over shared sources of their loadings'
   * products. Used instead of `factor` where given.
   */
  loadings?: Partial<Record<"metals" | "energy" | "copper" | "base", number>>;
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

// ——— The rest of the catalogue (docs/simulator.md, "Every instrument") ———

/** Days a selector rolls before its contract's roll day (docs/instruments.md): the core calendar's window. */
export const ROLL_DAYS = 3;

/**
 * The base metals, MCX-only and quoted in INR / kg: legs of their own on a second path, their
 * levels late-2025 MCX prices. Loadings: `metals` (the gold/silver/copper factor), `copper`
 * (copper's own shock: base metals follow copper far more than gold) and `base` (what they share
 * among themselves). Zinc's correlation with copper is 0.3 × 0.4 + 0.55 × √0.84 ≈ 0.62, with
 * gold 0.3 × 0.8 = 0.24, with aluminium 0.3 × 0.25 + 0.55 × 0.5 + 0.4 × 0.4 ≈ 0.51.
 */
export const EXTRA_LEG_IDS = ["ZINC", "ALUMINIUM", "LEAD", "NICKEL"] as const;
export type ExtraLegId = (typeof EXTRA_LEG_IDS)[number];

export const EXTRA_LEGS: Readonly<Record<ExtraLegId, LegParams>> = {
  // Zinc ≈ ₹295 / kg (LME ~$3,000 / t): ~22 % a year, the most copper-like.
  ZINC: { level: 295, annualVol: 0.22, loadings: { metals: 0.3, copper: 0.55, base: 0.4 } },
  // Aluminium ≈ ₹265 / kg: ~18 %, energy-heavy smelting keeps it a little apart (corr ~0.5 copper).
  ALUMINIUM: { level: 265, annualVol: 0.18, loadings: { metals: 0.25, copper: 0.5, base: 0.4 } },
  // Lead ≈ ₹182 / kg: ~18 %, the least tied to the cycle (battery demand; corr ~0.45 copper).
  LEAD: { level: 182, annualVol: 0.18, loadings: { metals: 0.2, copper: 0.4, base: 0.4 } },
  // Nickel ≈ ₹1,350 / kg: ~28 %, the wild one of the four (Indonesian supply, squeezes).
  NICKEL: { level: 1350, annualVol: 0.28, loadings: { metals: 0.25, copper: 0.45, base: 0.4 } },
};

/** A slow OU stepped hourly (a curve's slope, the Brent–WTI spread): μ, sd, half-life in hours. */
export interface SlowOuParams {
  mean: number;
  sd: number;
  halfLifeHours: number;
}

/**
 * A root's term structure (docs/simulator.md, "Term structure"): a contract expiring in τ years
 * is priced P + P̄·(ḡ·(τ − τ̄) + s), P the root's path (the price the fifteen built-in keys have
 * always quoted), P̄ its long-run level, ḡ = `slope.mean` the annual carry (contango > 0,
 * backwardation < 0 for energy), s the contract month's own place on the curve (sd: `slope.sd`
 * over a month, / √2) and τ̄ = `tenorDays` the tenor P stands for. A calendar spread is then
 * fixed while both months trade, so a roll moves no spread's z-score (docs/history.md).
 */
export interface CurveParams {
  slope: SlowOuParams;
  tenorDays: number;
}

export const CURVE_ROOTS = ["GC", "SI", "HG", "NG", "CL", ...EXTRA_LEG_IDS] as const;
export type CurveRoot = (typeof CURVE_ROOTS)[number];

/** Metals: cost of carry (USD rates ~4.5 % a year), a small noise that never flips the order. */
const USD_CARRY = (sd: number): SlowOuParams => ({ mean: 0.045, sd, halfLifeHours: 240 });
/** MCX base metals are financed in rupees: carry at Indian rates (~6.5 %). */
const INR_CARRY: SlowOuParams = { mean: 0.065, sd: 0.01, halfLifeHours: 240 };

export const CURVES: Readonly<Record<CurveRoot, CurveParams>> = {
  // Gold: 4.5 % ± 0.4 % carry (GC Feb–Apr ≈ $30). τ̄ = 44 days: P − XAUUSD's 22 $ basis is
  // 44 days of carry (22 / (4,050 × 4.5 %) × 365), so spot sits at the curve's τ = 0.
  GC: { slope: USD_CARRY(0.004), tenorDays: 44 },
  // Silver: the same carry; τ̄ = 32 days matches XAGUSD's 0.20 $ basis (0.2 / (50.5 × 4.5 %)).
  SI: { slope: USD_CARRY(0.006), tenorDays: 32 },
  // Copper: carry ± 1 % (copper's curve tightens and slackens more than gold's); τ̄ = 45 days,
  // the front month's typical tenor.
  HG: { slope: USD_CARRY(0.01), tenorDays: 45 },
  // Henry Hub: contango of 25 % a year on average (≈ $0.09 a month at $4.3), ± 50 %: the curve
  // flips into backwardation in a cold snap and back, half-life ~10 days.
  NG: { slope: { mean: 0.25, sd: 0.5, halfLifeHours: 240 }, tenorDays: 30 },
  // WTI: mild contango (6 % a year ≈ $0.30 a month) ± 15 %, so it spends about a third of the
  // time in backwardation; half-life ~15 days.
  CL: { slope: { mean: 0.06, sd: 0.15, halfLifeHours: 360 }, tenorDays: 30 },
  ZINC: { slope: INR_CARRY, tenorDays: 15 },
  ALUMINIUM: { slope: INR_CARRY, tenorDays: 15 },
  LEAD: { slope: INR_CARRY, tenorDays: 15 },
  NICKEL: { slope: INR_CARRY, tenorDays: 15 },
};

/** Brent − WTI at the same expiry, USD / bbl: ~$3.8 ± $0.8, half-life a week (seaborne vs Cushing). */
export const BRENT_WTI: SlowOuParams = { mean: 3.8, sd: 0.8, halfLifeHours: 168 };

/** A mini (or micro) against its big contract at the same expiry: a small, fast-reverting basis. */
export const MINI_IDS = [
  "GOLDM",
  "GOLDPETAL",
  "SILVERM",
  "SILVERMIC",
  "CRUDEOILM",
  "NATGASMINI",
  "MGC",
  "SIL",
  "MCL",
  "QG",
] as const;
export type MiniId = (typeof MINI_IDS)[number];

export const MINI_BASES: Readonly<Record<MiniId, OuParams>> = {
  // GOLDM − GOLD, ₹ / 10 g: a ₹15 premium ± ₹40 (retail lots pay up a little), half an hour.
  GOLDM: { mean: 15, sd: 40, halfLifeMinutes: 30 },
  // GOLDPETAL − GOLD / 10, ₹ / g: ₹2 ± ₹4.
  GOLDPETAL: { mean: 2, sd: 4, halfLifeMinutes: 30 },
  // SILVERM − SILVER, ₹ / kg: ₹80 ± ₹150 (0.1 %).
  SILVERM: { mean: 80, sd: 150, halfLifeMinutes: 30 },
  // SILVERMIC − SILVER, ₹ / kg: ₹150 ± ₹250, the thinnest book of the three.
  SILVERMIC: { mean: 150, sd: 250, halfLifeMinutes: 30 },
  // CRUDEOILM − CRUDEOIL, ₹ / bbl: 0 ± ₹4, arbitraged within minutes.
  CRUDEOILM: { mean: 0, sd: 4, halfLifeMinutes: 20 },
  // NATGASMINI − NATURALGAS, ₹ / mmBtu: 0 ± ₹0.8.
  NATGASMINI: { mean: 0, sd: 0.8, halfLifeMinutes: 20 },
  // CME micros against their big contracts: a tick or three either way, 15 minutes.
  MGC: { mean: 0, sd: 0.3, halfLifeMinutes: 15 },
  SIL: { mean: 0, sd: 0.01, halfLifeMinutes: 15 },
  MCL: { mean: 0, sd: 0.02, halfLifeMinutes: 15 },
  QG: { mean: 0, sd: 0.004, halfLifeMinutes: 15 },
};

/** How each future root of the catalogue is priced (docs/simulator.md, "Every instrument"). */
export type RootModel =
  /** On a curve of its own over a path leg (built-in CME legs, base metals). */
  | { kind: "curve"; root: CurveRoot }
  /**
   * MCX of a CME root, the existing parity model: parity(CME curve at this contract's expiry +
   * `offsetDays`) + the MCX deviation. The offset is how much later its CME twin expires (GOLD
   * on the 5th, COMEX's month ~22 days later), so outside the days when one has rolled and the
   * other not, MCX near − parity(CME near) is the deviation alone, as on the built-in spreads.
   */
  | { kind: "parity"; of: InstrumentId; offsetDays: number }
  /** `scale` × the big contract's curve at the same expiry + the mini's basis. */
  | { kind: "mini"; of: string; scale: number; basis: MiniId }
  /** WTI's curve at the same expiry + the Brent–WTI spread. */
  | { kind: "brent" };

export const ROOT_MODELS: Readonly<Record<string, RootModel>> = {
  GC: { kind: "curve", root: "GC" },
  SI: { kind: "curve", root: "SI" },
  HG: { kind: "curve", root: "HG" },
  NG: { kind: "curve", root: "NG" },
  CL: { kind: "curve", root: "CL" },
  ZINC: { kind: "curve", root: "ZINC" },
  ALUMINIUM: { kind: "curve", root: "ALUMINIUM" },
  LEAD: { kind: "curve", root: "LEAD" },
  NICKEL: { kind: "curve", root: "NICKEL" },
  // Offsets: the median days from the MCX near's expiry to its CME twin's over 2026–2028 by the
  // core calendar (gold 22, silver 24, energy 1; copper, monthly against quarterly, its mean 51).
  GOLD: { kind: "parity", of: "GC", offsetDays: 22 },
  SILVER: { kind: "parity", of: "SI", offsetDays: 24 },
  COPPER: { kind: "parity", of: "HG", offsetDays: 51 },
  CRUDEOIL: { kind: "parity", of: "CL", offsetDays: 1 },
  NATURALGAS: { kind: "parity", of: "NG", offsetDays: 1 },
  GOLDM: { kind: "mini", of: "GOLD", scale: 1, basis: "GOLDM" },
  GOLDPETAL: { kind: "mini", of: "GOLD", scale: 0.1, basis: "GOLDPETAL" },
  SILVERM: { kind: "mini", of: "SILVER", scale: 1, basis: "SILVERM" },
  SILVERMIC: { kind: "mini", of: "SILVER", scale: 1, basis: "SILVERMIC" },
  CRUDEOILM: { kind: "mini", of: "CRUDEOIL", scale: 1, basis: "CRUDEOILM" },
  NATGASMINI: { kind: "mini", of: "NATURALGAS", scale: 1, basis: "NATGASMINI" },
  MGC: { kind: "mini", of: "GC", scale: 1, basis: "MGC" },
  SIL: { kind: "mini", of: "SI", scale: 1, basis: "SIL" },
  MCL: { kind: "mini", of: "CL", scale: 1, basis: "MCL" },
  QG: { kind: "mini", of: "NG", scale: 1, basis: "QG" },
  BZ: { kind: "brent" },
};

/**
 * Book widths in ticks (the catalogue's tick) of the roots the built-in BOOKS table does not
 * cover: minis and micros a little wider than their big contracts, base metals a few ticks.
 */
export const WIDTH_TICKS: Readonly<Record<string, readonly [number, number]>> = {
  GOLDM: [3, 15],
  GOLDPETAL: [1, 4],
  SILVERM: [10, 40],
  SILVERMIC: [10, 50],
  ZINC: [1, 4],
  ALUMINIUM: [1, 4],
  LEAD: [1, 4],
  NICKEL: [2, 10],
  CRUDEOILM: [1, 4],
  NATGASMINI: [1, 5],
  MGC: [1, 4],
  SIL: [1, 5],
  MCL: [1, 3],
  BZ: [1, 2],
  QG: [1, 3],
};

/**
 * An instrument the simulator has no model for (an admin's own symbol): a plain random walk
 * around 100 — a round number that means nothing, neither a real price nor one derived from the
 * key — or 1,000 ticks where the tick is coarser than 0.1, so a price is always many ticks.
 * 20 % a year (a middling commodity), the 90-day pull of every leg, no correlation with anything.
 */
export const UNKNOWN_LEVEL = 100;
export const UNKNOWN_ANNUAL_VOL = 0.2;
export const UNKNOWN_WIDTH_TICKS = [1, 3] as const;
