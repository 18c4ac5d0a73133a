import { parse } from "csv-parse/sync";
import { httpGet } from "../http.ts";

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

/** What each of our keys is on Kite: the near-month future of a commodity, or an index. */
export type KiteTarget =
  | { exchange: "MCX" | "CDS"; future: string }
  | { exchange: "NSE"; index: string };

export const KITE_TARGETS: Readonly<Record<string, KiteTarget>> = {
  GOLD: { exchange: "MCX", future: "GOLD" },
  SILVER: { exchange: "MCX", future: "SILVER" },
  COPPER: { exchange: "MCX", future: "COPPER" },
  NATURALGAS: { exchange: "MCX", future: "NATURALGAS" },
  CRUDEOIL: { exchange: "MCX", future: "CRUDEOIL" },
  USDINR: { exchange: "CDS", future: "USDINR" },
  NIFTY50: { exchange: "NSE", index: "NIFTY 50" },
};

export const KITE_KEYS = Object.keys(KITE_TARGETS);

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

/** Today's date in India (YYYY-MM-DD): contracts expire by the IST calendar. */
export function istDate(at: number): string {
  return new Date(at + (5 * 60 + 30) * 60 * 1000).toISOString().slice(0, 10);
}

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

/**
 * The contract to watch for a target on `today`: the nearest monthly future with more than
 * `rollDays` days left (so the view rolls to the next month that many days before expiry);
 * the last one standing if every contract is inside the roll window. Expired rows are ignored.
 */
export function pickInstrument(
  instruments: readonly KiteInstrument[],
  target: KiteTarget,
  today: string,
  rollDays: number,
): KiteInstrument | undefined {
  if ("index" in target) {
    return instruments.find(
      (i) => i.exchange === target.exchange && i.tradingsymbol === target.index,
    );
  }
  const futures = monthlies(
    instruments.filter(
      (i) =>
        i.exchange === target.exchange &&
        i.name === target.future &&
        i.instrumentType === "FUT" &&
        /^\d{4}-\d{2}-\d{2}$/.test(i.expiry) &&
        daysBetween(today, i.expiry) >= 0,
    ),
  ).sort((a, b) => a.expiry.localeCompare(b.expiry));
  return futures.find((i) => daysBetween(today, i.expiry) > rollDays) ?? futures.at(-1);
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
