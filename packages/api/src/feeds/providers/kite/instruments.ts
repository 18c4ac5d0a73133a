import {
  type InstrumentSpec,
  MONTH_SELECTORS,
  type MonthSelector,
  parseInstrumentKey,
} from "@spreadwatch/core";
import { parse } from "csv-parse/sync";
import { httpGet } from "../http.ts";
import { istDate } from "../market-hours.ts";

/** One row of Kite's instruments dump (GET /instruments/:exchange, CSV). */
export interface KiteInstrument {
  token: number;
  tradingsymbol: string;
  name: string;
  /** YYYY-MM-DD, empty for indices. */
  expiry: string;
  instrumentType: string;
  segment: string;
  exchange: string;
}

/**
 * What a key is on Kite: in one exchange's instruments list, the row whose tradingsymbol is
 * `symbol` exactly (GOLD26FEBFUT, "NIFTY 50"), else the monthly futures whose `name` column is
 * `symbol` (GOLD, GOLDM, ZINC), of which `month` picks the first, second or third.
 */
export interface KiteTarget {
  exchange: KiteExchange;
  symbol: string;
  month: MonthSelector;
}

/** The instruments lists Kite is asked for: MCX futures, currency futures, NSE indices, NSE futures. */
export type KiteExchange = "MCX" | "CDS" | "NSE" | "NFO";

/** The built-in keys Kite quotes unless the market data config says otherwise. */
export const KITE_KEYS = [
  "GOLD",
  "SILVER",
  "COPPER",
  "NATURALGAS",
  "CRUDEOIL",
  "USDINR",
  "NIFTY50",
] as const;

/** Where a key's default Kite symbol is not its root. */
const KITE_SYMBOLS: Readonly<Record<string, string>> = { NIFTY50: "NIFTY 50" };

/**
 * The Kite target of an instrument (docs/market-data.md): `source.symbol` when its source is
 * Kite, else the key's root; the list by exchange (MCX, NFO and CDS their own; FX from CDS; NSE:
 * a month selector means an NFO future, none an NSE index). An instrument without a spec (a config key outside the
 * catalogue) is taken as an MCX future. A reason instead where Kite lists no such exchange.
 */
export function kiteTarget(
  key: string,
  spec: InstrumentSpec | undefined,
): KiteTarget | { missing: string } {
  const parsed = parseInstrumentKey(key);
  const symbol =
    spec?.source?.provider === "kite" ? spec.source.symbol : (KITE_SYMBOLS[key] ?? parsed.root);
  const month = spec ? (spec.month ?? parsed.month) : parsed.month;
  const exchange = kiteExchange(spec);
  if (!exchange) return { missing: `Kite does not list ${spec?.exchange} instruments` };
  return { exchange, symbol, month };
}

function kiteExchange(spec: InstrumentSpec | undefined): KiteExchange | undefined {
  switch (spec?.exchange ?? "MCX") {
    case "MCX":
      return "MCX";
    case "NFO":
      return "NFO";
    case "CDS":
      return "CDS";
    case "FX":
      return "CDS";
    case "NSE":
      return spec?.month ? "NFO" : "NSE";
    default:
      return undefined;
  }
}

export function parseInstruments(csv: string): KiteInstrument[] {
  const rows = parse(csv, {
    columns: true,
    skip_empty_lines: true,
    trim: true,
    bom: true,
  }) as Array<Record<string, string | undefined>>;
  const instruments: KiteInstrument[] = [];
  for (const row of rows) {
    const token = Number(row.instrument_token);
    if (!Number.isInteger(token) || token <= 0) continue;
    instruments.push({
      token,
      tradingsymbol: row.tradingsymbol ?? "",
      name: row.name ?? "",
      expiry: row.expiry ?? "",
      instrumentType: row.instrument_type ?? "",
      segment: row.segment ?? "",
      exchange: row.exchange ?? "",
    });
  }
  return instruments;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export { istDate };

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
}

/**
 * Keeps each calendar month's last-expiring future: the monthly contract. NSE lists weekly
 * USDINR futures that expire on earlier Fridays of the same month (never in the monthly's
 * expiry week); they are thinner and would roll every week, so they are never picked.
 */
function monthlies(futures: readonly KiteInstrument[]): KiteInstrument[] {
  const lastOfMonth = new Map<string, string>();
  for (const f of futures) {
    const month = f.expiry.slice(0, 7);
    if ((lastOfMonth.get(month) ?? "") < f.expiry) lastOfMonth.set(month, f.expiry);
  }
  return futures.filter((f) => lastOfMonth.get(f.expiry.slice(0, 7)) === f.expiry);
}

/** A target's futures by name: monthly, unexpired on `today`, nearest first. */
function futuresOf(
  instruments: readonly KiteInstrument[],
  target: KiteTarget,
  today: string,
): KiteInstrument[] {
  return monthlies(
    instruments.filter(
      (i) =>
        i.exchange === target.exchange &&
        i.name === target.symbol &&
        i.instrumentType === "FUT" &&
        /^\d{4}-\d{2}-\d{2}$/.test(i.expiry) &&
        daysBetween(today, i.expiry) >= 0,
    ),
  ).sort((a, b) => a.expiry.localeCompare(b.expiry));
}

/**
 * The row to watch for a target on `today`, or why there is none (worded for /api/health).
 * An exact tradingsymbol is that row until it expires. A name's near, next and far are the
 * first, second and third monthly futures with more than `rollDays` days left, so a month rolls
 * that many days before expiry; near keeps the last one standing when every contract is inside
 * the roll window. Expired rows are ignored.
 */
export function resolveTarget(
  instruments: readonly KiteInstrument[],
  target: KiteTarget,
  today: string,
  rollDays: number,
): { instrument: KiteInstrument } | { missing: string } {
  const exact = instruments.find(
    (i) => i.exchange === target.exchange && i.tradingsymbol === target.symbol,
  );
  if (exact) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(exact.expiry) && daysBetween(today, exact.expiry) < 0)
      return { missing: `${exact.tradingsymbol} expired on ${exact.expiry}` };
    return { instrument: exact };
  }
  const futures = futuresOf(instruments, target, today);
  const live = futures.filter((i) => daysBetween(today, i.expiry) > rollDays);
  const index = MONTH_SELECTORS.indexOf(target.month);
  const pick = live[index] ?? (index === 0 ? futures.at(-1) : undefined);
  if (pick) return { instrument: pick };
  if (futures.length === 0 && !instruments.some((i) => i.name === target.symbol))
    return {
      missing: `no ${target.symbol} in Kite's ${target.exchange} instruments list`,
    };
  return {
    missing: `no ${target.month} contract for ${target.symbol} in Kite's instruments list`,
  };
}

/** `resolveTarget`'s row, or undefined. */
export function pickInstrument(
  instruments: readonly KiteInstrument[],
  target: KiteTarget,
  today: string,
  rollDays: number,
): KiteInstrument | undefined {
  const resolved = resolveTarget(instruments, target, today, rollDays);
  return "instrument" in resolved ? resolved.instrument : undefined;
}

export async function fetchInstruments(
  apiRoot: string,
  exchange: string,
  auth: { apiKey: string; accessToken: string },
  signal: AbortSignal,
): Promise<KiteInstrument[]> {
  const response = await httpGet(`${apiRoot}/instruments/${exchange}`, {
    headers: {
      "X-Kite-Version": "3",
      authorization: `token ${auth.apiKey}:${auth.accessToken}`,
    },
    signal,
  });
  try {
    return parseInstruments(await response.text());
  } catch (error) {
    throw new Error(`the ${exchange} instruments list is not valid CSV`, { cause: error });
  }
}
