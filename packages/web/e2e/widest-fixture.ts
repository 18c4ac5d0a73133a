// The widest values a dashboard row can show, as a replay: layout tests measure against these,
// not against today's simulated prices, whose digits change with the date (a test written on a
// day with 4-digit spreads failed on a day with 5).
//
// Every figure has the most digits a market could plausibly give it, and a minus sign: MCX prices
// with six digits (SILVER 3,28,xxx), CME prices with their most (GC 4999.500, HG 9.9995),
// USDINR 99.99, spreads of −12,345 rupees on gold and silver (net per lot in the tens of lakhs),
// and a z-score of about −50 from forty minutes of history just above the live spread.
import type { StartOptions } from "./harness.ts";

const MINUTE = 60_000;
const USDINR = 99.99;

interface Pair {
  cme: string;
  mcx: string;
  /** CME bid and ask at their widest digits. */
  cmeBid: number;
  cmeAsk: number;
  /** CME price to MCX units: unit factor × (1 + duty), as docs/design.md §2. */
  factor: number;
  /** The spread the MCX prices are set to give, negative and wide. */
  spread: number;
  /** MCX bid below the ask by this much. */
  tick: number;
}

const PAIRS: readonly Pair[] = [
  {
    cme: "GC",
    mcx: "GOLD",
    cmeBid: 4999.5,
    cmeAsk: 5000,
    factor: (10 / 31.1034768) * 1.06,
    spread: -12_345.67,
    tick: 1,
  },
  {
    cme: "SI",
    mcx: "SILVER",
    cmeBid: 99.985,
    cmeAsk: 99.995,
    factor: (1000 / 31.1034768) * 1.06,
    spread: -12_345.67,
    tick: 1,
  },
  {
    cme: "HG",
    mcx: "COPPER",
    cmeBid: 9.9985,
    cmeAsk: 9.9995,
    factor: 2.20462262185,
    spread: -123.4567,
    tick: 0.05,
  },
  {
    cme: "NG",
    mcx: "NATURALGAS",
    cmeBid: 9.998,
    cmeAsk: 9.999,
    factor: 1,
    spread: -123.45,
    tick: 0.1,
  },
  {
    cme: "CL",
    mcx: "CRUDEOIL",
    cmeBid: 149.98,
    cmeAsk: 149.99,
    factor: 1,
    spread: -1_234.56,
    tick: 1,
  },
];

const round = (value: number, decimals: number) => Number(value.toFixed(decimals));

/**
 * The quotes of every instrument with the MCX prices moved up by `lift` spread units: the live
 * quotes at 0, the history above them so the live spread sits far below its mean.
 */
function quotes(ts: number, lift: number): string[] {
  const rows = [`${ts},fx,USDINR,,,${USDINR}`];
  for (const pair of PAIRS) {
    // BUY = MCX ask − parity(CME bid) (docs/design.md §2); SELL a tick and the CME spread lower.
    const ask = round(pair.cmeBid * pair.factor * USDINR + pair.spread + lift, 2);
    const bid = round(ask - pair.tick, 2);
    rows.push(`${ts},cme,${pair.cme},${pair.cmeBid},${pair.cmeAsk},`);
    rows.push(`${ts},mcx,${pair.mcx},${bid},${ask},`);
  }
  rows.push(`${ts},spot,XAUUSD,,,4899.99`, `${ts},spot,XAGUSD,,,99.99`);
  rows.push(`${ts},index,GIFTNIFTY,,,29999.75`, `${ts},index,NIFTY50,,,31234.55`);
  return rows;
}

/** Spread units the history sits above the live spread, and its swing: z ≈ −LIFT / SWING. */
const LIFT = 50;
const SWING = [1, -1, 0.5, -0.5];
const HISTORY_MINUTES = 40;

/**
 * Forty minutes of history ending an hour ago, then the widest quotes stamped `freshFor` ahead
 * so no row greys while the tests run.
 */
export function widestReplayCsv(now = Date.now(), freshFor = 30 * MINUTE): string {
  const start = Math.floor((now - 60 * MINUTE) / MINUTE) * MINUTE - HISTORY_MINUTES * MINUTE;
  const rows: string[] = [];
  for (let minute = 0; minute < HISTORY_MINUTES; minute++) {
    const swing = SWING[minute % SWING.length] ?? 0;
    rows.push(...quotes(start + minute * MINUTE + 1, LIFT + swing));
  }
  rows.push(...quotes(now + freshFor, 0));
  return ["ts,source,key,bid,ask,price", ...rows, ""].join("\n");
}

/** startApp's options for the widest values, played at once. */
export function widestFixture(): StartOptions {
  return { feed: "replay", replayCsv: widestReplayCsv() };
}

/**
 * The widest values, live: each row's MCX prices step between two values a little apart every
 * second for `minutes`, so alerts set between them fire and toasts show (no history: the replay
 * plays at real speed from its first quote).
 */
export function widestSwingingFixture(minutes = 30): StartOptions {
  const start = Date.now();
  const rows: string[] = [];
  for (let second = 0; second < minutes * 60; second++) {
    rows.push(...quotes(start + second * 1000, second % 2 === 0 ? 0 : 0.5));
  }
  return {
    feed: "replay",
    replayCsv: ["ts,source,key,bid,ask,price", ...rows, ""].join("\n"),
    replaySpeed: 1,
  };
}
