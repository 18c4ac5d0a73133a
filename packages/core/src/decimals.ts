import { type InstrumentId, instrumentByMcxKey, isInstrumentId } from "./instrument.ts";
import type { QuoteSource } from "./quote.ts";

/**
 * Display precision (docs/spec.md §9): spreads and prices 2 decimals, copper 4 everywhere; the CME
 * column 3 (copper 4). Every function takes an instrument id ("HG"), a spread symbol ("HG_BUY")
 * or an MCX key ("COPPER"), so a table cell can pass whatever key its row already has. An
 * unknown key gets the general rule rather than an error: a display rule must never break a row.
 */
function instrumentIdOf(key: string): InstrumentId | undefined {
  const head = key.split("_")[0] ?? key;
  if (isInstrumentId(head)) return head;
  return instrumentByMcxKey(key)?.id;
}

function isCopper(key: string): boolean {
  return instrumentIdOf(key) === "HG";
}

/** Decimals of a spread value: 4 for copper, 2 otherwise. */
export function spreadDecimals(key: string): number {
  return isCopper(key) ? 4 : 2;
}

/** Decimals of the CME price column: 4 for copper, 3 otherwise. */
export function cmePriceDecimals(key: string): number {
  return isCopper(key) ? 4 : 3;
}

/** Decimals of an MCX price: 4 for copper, 2 otherwise. */
export function mcxPriceDecimals(key: string): number {
  return isCopper(key) ? 4 : 2;
}

/**
 * Decimals of a row of the raw price table. CME rows use the CME column's rule, MCX rows the
 * MCX rule. USDINR gets 4: a rupee rate cut to 2 decimals hides moves that shift gold parity by
 * several rupees per 10 g. Spot and index prices use the general 2.
 */
export function rawPriceDecimals(source: QuoteSource, key: string): number {
  switch (source) {
    case "cme":
      return cmePriceDecimals(key);
    case "mcx":
      return mcxPriceDecimals(key);
    case "fx":
      return 4;
    default:
      return 2;
  }
}

const FINE_THRESHOLD_IDS: ReadonlySet<InstrumentId> = new Set(["NG", "CL", "HG"]);

/** Decimals of an alert threshold in the alert list: 4 for NG, CL, HG; 2 otherwise. */
export function thresholdDecimals(key: string): number {
  const id = instrumentIdOf(key);
  return id !== undefined && FINE_THRESHOLD_IDS.has(id) ? 4 : 2;
}

/** What a cell shows when there is no number to show (a spread that cannot be computed). */
export const MISSING_VALUE = "—";

const MAX_DECIMALS = 20;

/**
 * `value` with exactly `decimals` decimals, rounded half away from zero, without digit grouping
 * ("76420.00", "-0.50"). Missing or non-finite input gives MISSING_VALUE, so a cell can always
 * render the result; callers that need to know can test the input first.
 *
 * Rounding works on the shortest decimal string that reads back as the same double (what
 * `String(value)` prints), not on the binary value. `toFixed` rounds the binary value, so
 * 1.005 (stored as 1.00499999…) becomes "1.00"; here it becomes "1.01", the number the trader
 * typed or saw. A result that rounds to zero drops its sign ("0.00", never "-0.00").
 * `decimals` is truncated to an integer and clamped to 0…20.
 */
export function formatNumber(value: number | null | undefined, decimals: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING_VALUE;
  const places = Number.isFinite(decimals)
    ? Math.min(MAX_DECIMALS, Math.max(0, Math.trunc(decimals)))
    : 0;
  const { digits, pointAt } = decimalDigits(Math.abs(value));
  const rounded = roundDigits(digits, pointAt + places);
  // `rounded` holds the value × 10^places as a digit string, possibly one digit longer on carry.
  const padded = rounded.padStart(places + 1, "0");
  const whole = padded.slice(0, padded.length - places);
  const fraction = padded.slice(padded.length - places);
  const text = places > 0 ? `${whole}.${fraction}` : whole;
  return value < 0 && /[1-9]/.test(rounded) ? `-${text}` : text;
}

/**
 * A signed value for spread cells and the chart axis: "+12.34", "-0.50", and "0.00" (no sign)
 * for anything that rounds to zero. Missing input gives MISSING_VALUE like formatNumber.
 */
export function formatSigned(value: number | null | undefined, decimals: number): string {
  const text = formatNumber(value, decimals);
  if (text === MISSING_VALUE || text.startsWith("-") || !/[1-9]/.test(text)) return text;
  return `+${text}`;
}

/** U+2212, the minus sign of typeset figures: as wide as "+" and not a hyphen. */
export const MINUS_SIGN = "\u2212";

/**
 * formatSigned for reading, not for parsing: "+12.34", "−0.50" with U+2212, as the rupee figures
 * beside it ("−₹3,276") write it, so one screen shows one minus sign (README "Positions (paper)").
 * Inputs, CSV and the wire keep formatSigned's ASCII hyphen, which every parser reads.
 */
export function formatSignedText(value: number | null | undefined, decimals: number): string {
  const text = formatSigned(value, decimals);
  return text.startsWith("-") ? `${MINUS_SIGN}${text.slice(1)}` : text;
}

/**
 * The significant digits of a non-negative finite number and where its decimal point falls:
 * 1.005 → { digits: "1005", pointAt: 1 }, 1e-7 → { digits: "1", pointAt: -6 }.
 */
function decimalDigits(value: number): { digits: string; pointAt: number } {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  // String() of a non-negative finite number always matches; the fallback keeps this total.
  if (!match) return { digits: "0", pointAt: 1 };
  const [, whole = "0", fraction = "", exponent = "0"] = match;
  return { digits: whole + fraction, pointAt: whole.length + Number(exponent) };
}

/** The first `keep` digits (as an integer string), rounded half up on the digit after them. */
function roundDigits(digits: string, keep: number): string {
  if (keep < 0) return "0";
  const kept = digits.length >= keep ? digits.slice(0, keep) : digits.padEnd(keep, "0");
  const next = digits.charCodeAt(keep) - 48;
  if (!(next >= 5)) return kept === "" ? "0" : kept;
  return increment(kept);
}

function increment(integer: string): string {
  let carry = 1;
  let out = "";
  for (let i = integer.length - 1; i >= 0; i--) {
    const sum = integer.charCodeAt(i) - 48 + carry;
    carry = sum === 10 ? 1 : 0;
    out = String(sum % 10) + out;
  }
  return carry ? `1${out}` : out;
}
