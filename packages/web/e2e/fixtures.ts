import type { StartOptions } from "./harness.ts";

/**
 * A replay that gives every instrument one quote. The spreads it produces, worked by hand
 * (docs/design.md §2; USDINR 84; duty 6 % for GC and SI, 0 otherwise):
 *
 * GC  factor 10/31.1034768 = 0.3215074657
 *     parity(bid 2650.00) = 2650.00 × 0.3215074657 × 84 × 1.06 = 75861.6156
 *     parity(ask 2650.50) = 2650.50 × 0.3215074657 × 84 × 1.06 = 75875.9291
 *     GC_BUY  = 75990.00 − 75861.6156 = +128.3844 → "+128.38"
 *     GC_SELL = 75980.00 − 75875.9291 = +104.0709 → "+104.07"
 * SI  factor 1000/31.1034768 = 32.1507465686
 *     parity(bid 31.25) = 31.25 × 32.1507465686 × 84 × 1.06 = 89459.4523
 *     parity(ask 31.27) = 31.27 × 32.1507465686 × 84 × 1.06 = 89516.7064
 *     SI_BUY  = 89230.00 − 89459.4523 = −229.4523 → "-229.45"
 *     SI_SELL = 89210.00 − 89516.7064 = −306.7064 → "-306.71"
 * HG  factor 2.20462262185 (4 decimals for copper)
 *     parity(bid 4.1525) = 4.1525 × 2.20462262185 × 84 = 768.994417
 *     parity(ask 4.1535) = 4.1535 × 2.20462262185 × 84 = 769.179605
 *     HG_BUY  = 769.10 − 768.994417 = +0.105583 → "+0.1056"
 *     HG_SELL = 768.90 − 769.179605 = −0.279605 → "-0.2796"
 * NG  factor 1; MCX NATURALGAS has an ask but no bid
 *     NG_BUY  = 262.10 − 3.112 × 84 = 262.10 − 261.408 = +0.692 → "+0.69"
 *     NG_SELL cannot be computed (no MCX bid) → "—"
 * CL  factor 1
 *     CL_BUY  = 6003.00 − 71.42 × 84 = 6003.00 − 5999.28 = +3.72 → "+3.72"
 *     CL_SELL = 5998.00 − 71.45 × 84 = 5998.00 − 6001.80 = −3.80 → "-3.80"
 * Spot Gold   = mid(2650.00, 2650.50) − 2648.10 = 2650.25 − 2648.10 = +2.15 → "+2.15"
 * Spot Silver = mid(31.25, 31.27) − 31.30 = 31.26 − 31.30 = −0.04 → "-0.04"
 * Index       = GIFT NIFTY 24150.50 − NIFTY 50 24080.25 = +70.25 → "+70.25"
 */
const QUOTES: ReadonlyArray<
  [source: string, key: string, bid?: number, ask?: number, price?: number]
> = [
  ["fx", "USDINR", undefined, undefined, 84],
  ["cme", "GC", 2650, 2650.5],
  ["cme", "SI", 31.25, 31.27],
  ["cme", "HG", 4.1525, 4.1535],
  ["cme", "NG", 3.112, 3.115],
  ["cme", "CL", 71.42, 71.45],
  ["mcx", "GOLD", 75980, 75990],
  ["mcx", "SILVER", 89210, 89230],
  ["mcx", "COPPER", 768.9, 769.1],
  ["mcx", "NATURALGAS", undefined, 262.1],
  ["mcx", "CRUDEOIL", 5998, 6003],
  ["spot", "XAUUSD", undefined, undefined, 2648.1],
  ["spot", "XAGUSD", undefined, undefined, 31.3],
  ["index", "GIFTNIFTY", undefined, undefined, 24150.5],
  ["index", "NIFTY50", undefined, undefined, 24080.25],
];

/** Displayed text per row of the Spread table, from the hand calculation above. */
export const EXPECTED_SPREADS = {
  GC_BUY: { spread: "+128.38", cme: "2650.000", mcx: "75990.00" },
  GC_SELL: { spread: "+104.07", cme: "2650.500", mcx: "75980.00" },
  SI_BUY: { spread: "-229.45", cme: "31.250", mcx: "89230.00" },
  SI_SELL: { spread: "-306.71", cme: "31.270", mcx: "89210.00" },
  HG_BUY: { spread: "+0.1056", cme: "4.1525", mcx: "769.1000" },
  HG_SELL: { spread: "-0.2796", cme: "4.1535", mcx: "768.9000" },
  NG_BUY: { spread: "+0.69", cme: "3.112", mcx: "262.10" },
  NG_SELL: { spread: "—", cme: "3.115", mcx: "—" },
  CL_BUY: { spread: "+3.72", cme: "71.420", mcx: "6003.00" },
  CL_SELL: { spread: "-3.80", cme: "71.450", mcx: "5998.00" },
} as const;

const cell = (value: number | undefined) => (value === undefined ? "" : String(value));

/** The fixture as replay CSV, its quotes stamped one millisecond apart ending at `endMs`. */
export function fixtureCsv(endMs: number): string {
  const lines = QUOTES.map(([source, key, bid, ask, price], i) => {
    const ts = endMs - (QUOTES.length - 1 - i);
    return [ts, source, key, cell(bid), cell(ask), cell(price)].join(",");
  });
  return ["ts,source,key,bid,ask,price", ...lines, ""].join("\n");
}

/**
 * The fixture's quotes as replay rows, all stamped `ts`, with MCX prices moved by `mcxShift`
 * (a share: 0.0003 is 3 bp up), for history whose spreads vary around the fixture's.
 */
export function freshQuotes(ts: number, mcxShift: number): string[] {
  const shifted = (source: string, value: number | undefined) =>
    value === undefined || source !== "mcx" ? value : Number((value * (1 + mcxShift)).toFixed(2));
  return QUOTES.map(([source, key, bid, ask, price]) =>
    [ts, source, key, cell(shifted(source, bid)), cell(shifted(source, ask)), cell(price)].join(
      ",",
    ),
  );
}

/**
 * startApp's options for replaying the fixture, stamped a minute ahead so the quotes are still
 * fresh however long start-up takes.
 */
export function freshFixture(env?: Record<string, string>): StartOptions {
  return { feed: "replay", replayCsv: fixtureCsv(Date.now() + 60_000), env };
}

/**
 * The fresh fixture with MCX GOLD's book crossed (bid 75995 above ask 75990), as a feed that kept
 * an old side would leave it.
 */
export function crossedGoldFixture(): StartOptions {
  const end = Date.now() + 60_000;
  const lines = QUOTES.map(([source, key, bid, ask, price], i) => {
    const ts = end - (QUOTES.length - 1 - i);
    const shownBid = key === "GOLD" ? CROSSED_GOLD.bid : bid;
    return [ts, source, key, cell(shownBid), cell(ask), cell(price)].join(",");
  });
  return { feed: "replay", replayCsv: ["ts,source,key,bid,ask,price", ...lines, ""].join("\n") };
}

/** MCX GOLD's crossed book in crossedGoldFixture. */
export const CROSSED_GOLD = { bid: 75995, ask: 75990 } as const;

/** The same quotes with ISO timestamps from March 2024: every price is long stale. */
export function oldFixtureCsv(): string {
  const start = Date.parse("2024-03-15T09:30:00Z");
  const lines = QUOTES.map(([source, key, bid, ask, price], i) => {
    const ts = new Date(start + i * 1000).toISOString();
    return [ts, source, key, cell(bid), cell(ask), cell(price)].join(",");
  });
  return ["ts,source,key,bid,ask,price", ...lines, ""].join("\n");
}

/**
 * GOLD asks that put GC_BUY at +128.38 (the fixture's) and at +88.38, 40 lower. The low tick
 * lowers the bid too (lowBid), or the book would be crossed and GC_BUY not computed at all.
 */
export const GOLD_SWING = {
  highAsk: 75990,
  lowAsk: 75950,
  lowBid: 75940,
  high: "128.38",
  low: "88.38",
} as const;

/**
 * The fixture's quotes every `periodMs` from `startMs`, `ticks` times, with the GOLD ask
 * alternating so that GC_BUY swings between +128.38 and +88.38 (starting high). An alert on
 * GC_BUY at 100 sees a crossing every period, whenever it was made; the other spreads hold still
 * and every price stays fresh. Meant for REPLAY_SPEED 1.
 */
export function goldSwingCsv(startMs: number, ticks: number, periodMs = 2_000): string {
  const lines: string[] = [];
  for (let tick = 0; tick < ticks; tick++) {
    const at = startMs + tick * periodMs;
    for (const [source, key, bid, ask, price] of QUOTES) {
      const low = key === "GOLD" && tick % 2 === 1;
      const swungAsk = key === "GOLD" ? (low ? GOLD_SWING.lowAsk : GOLD_SWING.highAsk) : ask;
      const swungBid = low ? GOLD_SWING.lowBid : bid;
      lines.push([at, source, key, cell(swungBid), cell(swungAsk), cell(price)].join(","));
    }
  }
  return ["ts,source,key,bid,ask,price", ...lines, ""].join("\n");
}
