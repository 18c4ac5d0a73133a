// A roll on the spread chart (docs/user-guide.md "Instruments"): its label, and the back-adjusted
// view that shifts the candles before each roll by the gap at the roll, so a contract change does
// not read as a move of the spread.
import type { Candle } from "./candles.ts";
import { parseInstrumentKey } from "./catalogue.ts";
import { MONTH_CODES } from "./contract-calendar.ts";

/** When a key's quotes moved from one contract to the next (the `/api/rolls` entry). */
export interface ChartRoll {
  key: string;
  /** Epoch ms. */
  at: number;
  /** Contract names: GOLD26FEBFUT, GCG27, or whatever the provider calls them. */
  from: string;
  to: string;
}

const MONTHS = "JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC";
const MONTH_NAMES = MONTHS.split("|");
/** MCX / Kite: GOLD26FEBFUT, and Kite's options-free future names generally. */
const MCX_STYLE = new RegExp(`(\\d{2})(${MONTHS})FUT$`);
/** CME / Yahoo: GCG27, CLG27.NYM, GCZ6 (one-digit year). */
const CME_STYLE = /^[A-Z0-9]+?([FGHJKMNQUVXZ])(\d{1,2})(\.[A-Z]+)?$/;

/**
 * "26FEB" for GOLD26FEBFUT or GCG26 (the year and month a contract name carries); the name
 * itself when it carries neither, so a provider's unusual name still shows.
 */
export function contractMonthLabel(contract: string): string {
  const mcx = MCX_STYLE.exec(contract);
  if (mcx) return `${mcx[1]}${mcx[2]}`;
  const cme = CME_STYLE.exec(contract);
  if (cme) {
    const month = MONTH_CODES.indexOf(cme[1] as (typeof MONTH_CODES)[number]);
    return `${(cme[2] as string).padStart(2, "0")}${MONTH_NAMES[month]}`;
  }
  return contract;
}

/**
 * The delivery month a contract name carries as one ordinal (year × 12 + month − 1), so months
 * of MCX's and CME's names compare (GOLD26DECFUT before GCG27); undefined when it carries none.
 */
export function contractMonthIndex(contract: string): number | undefined {
  const label = contractMonthLabel(contract);
  const match = /^(\d{2})([A-Z]{3})$/.exec(label);
  if (!match) return undefined;
  const month = MONTH_NAMES.indexOf(match[2] as string);
  if (month < 0) return undefined;
  return (2000 + Number(match[1])) * 12 + month;
}

/** "GOLD near: 26FEB → 26APR", "GC next: 26APR → 26JUN". */
export function rollLabel(roll: Pick<ChartRoll, "key" | "from" | "to">): string {
  const { root, month } = parseInstrumentKey(roll.key);
  return `${root} ${month}: ${contractMonthLabel(roll.from)} → ${contractMonthLabel(roll.to)}`;
}

/**
 * The back-adjusted series: every candle before a roll is shifted by that roll's gap (the open
 * of the first candle at or after the roll minus the close of the last one before it), latest
 * roll first, so the shifts of later rolls add up on older candles and the newest candles stay
 * as traded. A roll with no candle on one side moves nothing. Returns `candles` itself when
 * nothing moves.
 */
export function backAdjustCandles(
  candles: readonly Candle[],
  rolls: readonly Pick<ChartRoll, "at">[],
): readonly Candle[] {
  const times = [...new Set(rolls.map((roll) => roll.at))]
    .filter(Number.isFinite)
    .sort((a, b) => b - a);
  let out: Candle[] | undefined;
  for (const at of times) {
    const series = out ?? candles;
    const after = series.findIndex((c) => c.timestamp >= at);
    if (after <= 0) continue;
    const gap = (series[after] as Candle).open - (series[after - 1] as Candle).close;
    if (!Number.isFinite(gap) || gap === 0) continue;
    out ??= [...candles];
    for (let i = 0; i < after; i++) {
      const c = out[i] as Candle;
      out[i] = {
        timestamp: c.timestamp,
        open: c.open + gap,
        high: c.high + gap,
        low: c.low + gap,
        close: c.close + gap,
      };
    }
  }
  return out ?? candles;
}
