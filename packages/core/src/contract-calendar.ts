// Which futures contract each month selector means on a day, from the exchanges' listing and
// expiry rules (docs/instruments.md cites each contract specification). Holidays known here:
// weekends, and for the products whose rules count US business days (CME's, and MCX energy, which
// keys off NYMEX) the US exchange holidays; an expiry that falls on one moves to the business day
// before, as both exchanges' rules say. India's and London's holidays are not known: a real feed
// (Kite's instruments list) knows them and wins where it has an answer; this calendar serves the
// simulator, Yahoo's month symbols and docs.

export const MONTH_SELECTORS = ["near", "next", "far"] as const;
export type MonthSelector = (typeof MONTH_SELECTORS)[number];

/** CME's month codes, also Yahoo's (GCG27.CMX is COMEX gold February 2027). */
export const MONTH_CODES = ["F", "G", "H", "J", "K", "M", "N", "Q", "U", "V", "X", "Z"] as const;
const MONTH_NAMES = [
  "JAN",
  "FEB",
  "MAR",
  "APR",
  "MAY",
  "JUN",
  "JUL",
  "AUG",
  "SEP",
  "OCT",
  "NOV",
  "DEC",
] as const;

/** When a contract stops trading, relative to its contract month. */
export type ExpiryRule =
  /** A day of the contract month (MCX GOLD and SILVER: the 5th). */
  | { kind: "day"; day: number }
  /**
   * The last business day of the contract month (or of the month `monthsBefore` it), or `back`
   * business days before it; `backIn` gives some contract months another `back` (NYMEX BZ's
   * February contract stops a day earlier, before New Year's Day).
   */
  | {
      kind: "month-end";
      back?: number;
      monthsBefore?: number;
      backIn?: Readonly<Partial<Record<number, number>>>;
    }
  /** The `nth` given weekday of the contract month (MCX NICKEL: the third Wednesday, 3). */
  | { kind: "weekday"; weekday: number; nth: number }
  /**
   * `back` business days before a calendar day of the month `monthsBefore` the contract month
   * (NYMEX CL: 3 business days before the 25th of the month before).
   */
  | { kind: "before-day"; day: number; back: number; monthsBefore: number; oneMoreIfHoliday?: true }
  /** `back` business days before another product's contract of `monthsAfter` months later. */
  | { kind: "before-product"; product: string; back: number; monthsAfter: number };

export interface ContractProduct {
  /** The exchange's product code: GOLD, GC, CRUDEOIL, BZ. */
  root: string;
  /** Listed contract months (1–12). */
  months: readonly number[];
  expiry: ExpiryRule;
  /**
   * Positions roll before this instead of expiry where delivery notices start first (COMEX
   * metals: first notice day, the business day before the contract month).
   */
  firstNotice?: ExpiryRule;
  /** "us": its business days skip the US exchange holidays too, not only weekends. */
  holidays?: "us";
}

const EVERY_MONTH = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
const EVEN_MONTHS = [2, 4, 6, 8, 10, 12] as const;
const COMEX_SILVER_MONTHS = [3, 5, 7, 9, 12] as const;
const MCX_SILVER_MINI_MONTHS = [2, 4, 6, 8, 11] as const;
const MONTH_END: ExpiryRule = { kind: "month-end" };
const COMEX_NOTICE: ExpiryRule = { kind: "month-end", monthsBefore: 1 };
const COMEX_LAST_TRADE: ExpiryRule = { kind: "month-end", back: 2 };
const NYMEX_CL: ExpiryRule = {
  kind: "before-day",
  day: 25,
  back: 3,
  monthsBefore: 1,
  oneMoreIfHoliday: true,
};
const NYMEX_NG: ExpiryRule = { kind: "before-day", day: 1, back: 3, monthsBefore: 0 };

function product(
  root: string,
  months: readonly number[],
  expiry: ExpiryRule,
  firstNotice?: ExpiryRule,
): ContractProduct {
  return { root, months, expiry, ...(firstNotice && { firstNotice }) };
}

/** A product whose rules count US business days. */
function us(p: ContractProduct): ContractProduct {
  return { ...p, holidays: "us" };
}

function mcxEnergy(root: string, nymex: string): ContractProduct {
  return us(
    product(root, EVERY_MONTH, { kind: "before-product", product: nymex, back: 1, monthsAfter: 1 }),
  );
}

/** The listing and expiry rules of every future in the shipped catalogue. */
export const CONTRACT_PRODUCTS: readonly ContractProduct[] = [
  // MCX
  product("GOLD", EVEN_MONTHS, { kind: "day", day: 5 }),
  product("GOLDM", EVERY_MONTH, { kind: "day", day: 5 }),
  product("GOLDPETAL", EVERY_MONTH, MONTH_END),
  product("SILVER", COMEX_SILVER_MONTHS, { kind: "day", day: 5 }),
  product("SILVERM", MCX_SILVER_MINI_MONTHS, MONTH_END),
  product("SILVERMIC", MCX_SILVER_MINI_MONTHS, MONTH_END),
  product("COPPER", EVERY_MONTH, MONTH_END),
  product("ZINC", EVERY_MONTH, MONTH_END),
  product("ALUMINIUM", EVERY_MONTH, MONTH_END),
  product("LEAD", EVERY_MONTH, MONTH_END),
  // NICKEL's trading unit and expiry changed from the September 2025 contract (docs/instruments.md).
  product("NICKEL", EVERY_MONTH, { kind: "weekday", weekday: 3, nth: 3 }),
  // MCX energy expires the business day before NYMEX's contract of the following month, and
  // skips the US holidays too (MCX's published calendars do: 16 June 2023, before Juneteenth).
  mcxEnergy("CRUDEOIL", "CL"),
  mcxEnergy("CRUDEOILM", "CL"),
  mcxEnergy("NATURALGAS", "NG"),
  mcxEnergy("NATGASMINI", "NG"),
  // COMEX (active months; last trade the third-last business day, notices from month end before)
  us(product("GC", EVEN_MONTHS, COMEX_LAST_TRADE, COMEX_NOTICE)),
  us(product("MGC", EVEN_MONTHS, COMEX_LAST_TRADE, COMEX_NOTICE)),
  us(product("SI", COMEX_SILVER_MONTHS, COMEX_LAST_TRADE, COMEX_NOTICE)),
  us(product("SIL", COMEX_SILVER_MONTHS, COMEX_LAST_TRADE, COMEX_NOTICE)),
  us(product("HG", COMEX_SILVER_MONTHS, COMEX_LAST_TRADE, COMEX_NOTICE)),
  // NYMEX
  us(product("CL", EVERY_MONTH, NYMEX_CL)),
  us(product("MCL", EVERY_MONTH, { ...NYMEX_CL, back: 4 })),
  us(product("NG", EVERY_MONTH, NYMEX_NG)),
  us(product("QG", EVERY_MONTH, { kind: "before-day", day: 1, back: 4, monthsBefore: 0 })),
  product("BZ", EVERY_MONTH, { kind: "month-end", monthsBefore: 2, backIn: { 2: 1 } }),
];

const productsByRoot = new Map(CONTRACT_PRODUCTS.map((p) => [p.root, p]));

export function contractProduct(root: string): ContractProduct | undefined {
  return productsByRoot.get(root);
}

/** A calendar date as YYYY-MM-DD, with helpers that never leave UTC (dates carry no time). */
function iso(year: number, month: number, day: number): string {
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

function isWeekend(date: string): boolean {
  const weekday = weekdayOf(date);
  return weekday === 0 || weekday === 6;
}

/** The `nth` `weekday` (0 Sunday … 6 Saturday) of a month; nth -1 is the last. */
function nthWeekday(year: number, month: number, weekday: number, nth: number): string {
  if (nth < 0) {
    const last = lastDay(year, month);
    return addDays(last, -((weekdayOf(last) - weekday + 7) % 7));
  }
  const first = weekdayOf(iso(year, month, 1));
  return iso(year, month, 1 + ((weekday - first + 7) % 7) + 7 * (nth - 1));
}

/** Easter Sunday (the Gregorian computus), for Good Friday. */
function easter(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const h =
    (19 * a + b - Math.floor(b / 4) - Math.floor((b - Math.floor((b + 8) / 25) + 1) / 3) + 15) % 30;
  const l = (32 + 2 * (b % 4) + 2 * Math.floor(c / 4) - h - (c % 4)) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const n = h + l - 7 * m + 114;
  return iso(year, Math.floor(n / 31), (n % 31) + 1);
}

/** A fixed-date holiday on a weekend is kept on the Friday before or the Monday after. */
function observed(date: string): string {
  const weekday = weekdayOf(date);
  return weekday === 6 ? addDays(date, -1) : weekday === 0 ? addDays(date, 1) : date;
}

const usHolidayYears = new Map<number, ReadonlySet<string>>();

/**
 * The US exchange holidays of a year (CME Group's and NYSE's: New Year's Day, Martin Luther King
 * Jr. Day, Presidents' Day, Good Friday, Memorial Day, Juneteenth from 2022, Independence Day,
 * Labor Day, Thanksgiving, Christmas), each on its observed day. A New Year's Day on a Saturday
 * is not observed on the Friday before.
 */
function usHolidays(year: number): ReadonlySet<string> {
  let days = usHolidayYears.get(year);
  if (!days) {
    const newYear = iso(year, 1, 1);
    days = new Set([
      ...(weekdayOf(newYear) === 6 ? [] : [observed(newYear)]),
      nthWeekday(year, 1, 1, 3),
      nthWeekday(year, 2, 1, 3),
      addDays(easter(year), -2),
      nthWeekday(year, 5, 1, -1),
      ...(year >= 2022 ? [observed(iso(year, 6, 19))] : []),
      observed(iso(year, 7, 4)),
      nthWeekday(year, 9, 1, 1),
      nthWeekday(year, 11, 4, 4),
      observed(iso(year, 12, 25)),
    ]);
    usHolidayYears.set(year, days);
  }
  return days;
}

/** Whether `date` is a US exchange holiday (not counting weekends). */
export function isUsExchangeHoliday(date: string): boolean {
  return usHolidays(Number(date.slice(0, 4))).has(date);
}

/** Whether no business is done on `date` under a product's holidays. */
function closed(date: string, holidays: "us" | undefined): boolean {
  return isWeekend(date) || (holidays === "us" && isUsExchangeHoliday(date));
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The business day on or before `date`. */
function onOrBefore(date: string, holidays?: "us"): string {
  let d = date;
  while (closed(d, holidays)) d = addDays(d, -1);
  return d;
}

/** `count` business days before `date`, which itself does not count. */
function businessDaysBefore(date: string, count: number, holidays?: "us"): string {
  let d = date;
  for (let i = 0; i < count; i++) d = onOrBefore(addDays(d, -1), holidays);
  return d;
}

function shiftMonth(year: number, month: number, by: number): [number, number] {
  const index = year * 12 + (month - 1) + by;
  return [Math.floor(index / 12), (index % 12) + 1];
}

function lastDay(year: number, month: number): string {
  const [y, m] = shiftMonth(year, month, 1);
  return addDays(iso(y, m, 1), -1);
}

/**
 * The last trading day of the contract of `month` in `year` under `rule`, counting business days
 * with `holidays` ("us": US exchange holidays as well as weekends).
 */
export function expiryDate(rule: ExpiryRule, year: number, month: number, holidays?: "us"): string {
  switch (rule.kind) {
    case "day":
      return onOrBefore(iso(year, month, rule.day), holidays);
    case "month-end": {
      const [y, m] = shiftMonth(year, month, -(rule.monthsBefore ?? 0));
      const back = rule.backIn?.[month] ?? rule.back ?? 0;
      return businessDaysBefore(onOrBefore(lastDay(y, m), holidays), back, holidays);
    }
    case "weekday":
      return onOrBefore(nthWeekday(year, month, rule.weekday, rule.nth), holidays);
    case "before-day": {
      // CL: "3 business days before the 25th; 4 if the 25th is not a business day" (a weekend,
      // or Christmas).
      const [y, m] = shiftMonth(year, month, -rule.monthsBefore);
      const anchor = iso(y, m, rule.day);
      const extra = rule.oneMoreIfHoliday && closed(anchor, holidays) ? 1 : 0;
      return businessDaysBefore(anchor, rule.back + extra, holidays);
    }
    case "before-product": {
      const other = productsByRoot.get(rule.product);
      if (!other) throw new Error(`unknown product ${rule.product}`);
      const [y, m] = shiftMonth(year, month, rule.monthsAfter);
      return businessDaysBefore(
        expiryDate(other.expiry, y, m, other.holidays),
        rule.back,
        holidays,
      );
    }
  }
}

/** One listed contract of a product. */
export interface Contract {
  root: string;
  year: number;
  month: number;
  /** Last trading day, YYYY-MM-DD. */
  expiry: string;
  /** The day positions roll from: first notice where there is one, else expiry. */
  rollFrom: string;
  /** "26FEB": the month as Kite's tradingsymbols and roll labels write it. */
  label: string;
  /** GOLD26FEBFUT (MCX's style) or GCG27 (CME's style). */
  symbol: string;
}

function contractOf(
  p: ContractProduct,
  year: number,
  month: number,
  style: "mcx" | "cme",
): Contract {
  const expiry = expiryDate(p.expiry, year, month, p.holidays);
  const notice = p.firstNotice ? expiryDate(p.firstNotice, year, month, p.holidays) : expiry;
  const yy = String(year % 100).padStart(2, "0");
  const label = `${yy}${MONTH_NAMES[month - 1]}`;
  const symbol =
    style === "mcx" ? `${p.root}${label}FUT` : `${p.root}${MONTH_CODES[month - 1]}${yy}`;
  return {
    root: p.root,
    year,
    month,
    expiry,
    rollFrom: [notice, expiry].sort()[0] as string,
    label,
    symbol,
  };
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
}

/**
 * The contracts of a product still trading on `today` whose roll day is more than `rollDays`
 * away, nearest first: [near, next, far, …]. `style` names them the way their exchange does.
 */
export function liveContracts(
  p: ContractProduct,
  today: string,
  rollDays: number,
  style: "mcx" | "cme",
  count = 3,
): Contract[] {
  const out: Contract[] = [];
  let [year, month] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  // Some rules expire in the month before the contract month (CL, BZ): start two months back.
  [year, month] = shiftMonth(year, month, -2);
  for (let i = 0; i < 48 && out.length < count; i++) {
    if (p.months.includes(month)) {
      const c = contractOf(p, year, month, style);
      if (daysBetween(today, c.rollFrom) > rollDays) out.push(c);
    }
    [year, month] = shiftMonth(year, month, 1);
  }
  return out;
}

/** The contract a selector means on `today`, or undefined for a product this calendar lacks. */
export function contractFor(
  root: string,
  selector: MonthSelector,
  today: string,
  rollDays: number,
  style: "mcx" | "cme",
): Contract | undefined {
  const p = productsByRoot.get(root);
  if (!p) return undefined;
  return liveContracts(p, today, rollDays, style)[MONTH_SELECTORS.indexOf(selector)];
}
