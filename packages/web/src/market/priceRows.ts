import {
  type BookEntry,
  BUILT_IN_KEYS,
  type Exchange,
  groupOfExchange,
  type InstrumentSpec,
  type PriceEntry,
  type Prices,
  priceField,
  type QuoteSource,
  rawPriceDecimals,
  SHIPPED_INSTRUMENTS,
  SPREAD_TABLE_GROUPS,
  instrument as spreadInstrument,
} from "@spreadwatch/core";

/** What the Prices table needs to know of an instrument: the catalogue's or the server's list. */
export type InstrumentInfo = Pick<InstrumentSpec, "key" | "exchange" | "name" | "decimals">;

export interface PriceRow {
  source: QuoteSource;
  key: string;
  exchange: Exchange;
  /** The short venue before the key: CME for US futures (as the fifteen always had), else the exchange. */
  venue: string;
  name: string;
  /** Futures carry a book (bid and ask); spot, index and FX one price. */
  book: boolean;
  entry: BookEntry | PriceEntry | undefined;
  decimals: number;
  contract?: string;
  /** Last trading day, YYYY-MM-DD. */
  expiry?: string;
}

export interface PriceGroup {
  /** COMEX, NYMEX, MCX, Spot, Index, FX… */
  label: string;
  rows: PriceRow[];
}

/**
 * Exchanges in table order: US futures first, then MCX (docs/spec.md §2: CME rows, then MCX
 * rows), then spot, index (NSE and NSE IX together) and FX.
 */
const GROUP_ORDER: readonly [label: string, exchanges: readonly Exchange[]][] = [
  ["COMEX", ["COMEX"]],
  ["NYMEX", ["NYMEX"]],
  ["CME", ["CME"]],
  ["CBOT", ["CBOT"]],
  ["MCX", ["MCX"]],
  ["NFO", ["NFO"]],
  ["CDS", ["CDS"]],
  ["Spot", ["SPOT"]],
  ["Index", ["NSE", "NSEIX"]],
  ["FX", ["FX"]],
];

/** Where a key with no known instrument is listed: by the section of /api/prices it came in. */
const EXCHANGE_OF_SOURCE: Record<QuoteSource, Exchange> = {
  cme: "CME",
  mcx: "MCX",
  spot: "SPOT",
  index: "NSE",
  fx: "FX",
};

const SECTION_OF = { cme: "cme", mcx: "mcx", spot: "spot", index: "zerodha", fx: "fx" } as const;
const INDEX_KEY: Record<string, string> = { nifty50: "NIFTY50", giftnifty: "GIFTNIFTY" };

/** The fifteen first, in the order their rows always had; then the shipped catalogue's order. */
const RANK = new Map<string, number>();
for (const key of [
  ...SPREAD_TABLE_GROUPS.map((id) => spreadInstrument(id).cmeKey),
  ...SPREAD_TABLE_GROUPS.map((id) => spreadInstrument(id).mcxKey),
  ...BUILT_IN_KEYS,
  ...SHIPPED_INSTRUMENTS.map((spec) => spec.key),
]) {
  if (!RANK.has(key)) RANK.set(key, RANK.size);
}

function entryOf(prices: Prices, source: QuoteSource, key: string) {
  const section = prices[SECTION_OF[source]] as Record<string, BookEntry | PriceEntry | undefined>;
  return section[source === "index" ? priceField(key) : key];
}

/** Every key the prices carry, with the section it came in. */
function quotedKeys(prices: Prices): [QuoteSource, string][] {
  const out: [QuoteSource, string][] = [];
  for (const source of ["cme", "mcx", "spot", "index", "fx"] as const) {
    for (const field of Object.keys(prices[SECTION_OF[source]] ?? {})) {
      out.push([source, source === "index" ? (INDEX_KEY[field] ?? field) : field]);
    }
  }
  return out;
}

/**
 * The Prices table's rows grouped by exchange: the fifteen built-in keys always (with dashes
 * until quoted), and every other key the prices carry: the server quotes only instruments in
 * use, so a removed one leaves with its price. `described` (the server's instrument list)
 * names each key's exchange, name and decimals; a key it lacks is described by the shipped
 * catalogue, or else listed under the section it came in.
 */
export function priceGroups(prices: Prices, described: readonly InstrumentInfo[]): PriceGroup[] {
  const known = new Map<string, InstrumentInfo>(SHIPPED_INSTRUMENTS.map((s) => [s.key, s]));
  for (const spec of described) known.set(spec.key, spec);
  const keys = new Map<string, QuoteSource | undefined>();
  for (const key of BUILT_IN_KEYS) keys.set(key, undefined);
  for (const [source, key] of quotedKeys(prices)) if (!keys.has(key)) keys.set(key, source);

  const rows = [...keys].map(([key, quotedIn]): PriceRow => {
    const spec = known.get(key) ?? {
      key,
      exchange: EXCHANGE_OF_SOURCE[quotedIn ?? "cme"],
      name: key,
      decimals: rawPriceDecimals(quotedIn ?? "cme", key),
    };
    const source = groupOfExchange(spec.exchange);
    const book = source === "cme" || source === "mcx";
    const contract = prices.contracts?.[key];
    return {
      source,
      key,
      exchange: spec.exchange,
      // COMEX, NYMEX, CME and CBOT rows read "CME", as the fifteen always did; the rest their own
      // exchange (MCX, and NFO and CDS, whose books share the mcx section).
      venue: source === "cme" ? "CME" : spec.exchange,
      name: spec.name,
      book,
      entry: entryOf(prices, source, key),
      decimals: spec.decimals,
      ...(contract && { contract: contract.contract }),
      ...(contract?.expiry && { expiry: contract.expiry }),
    };
  });
  const rank = (row: PriceRow) => RANK.get(row.key) ?? Number.MAX_SAFE_INTEGER;
  return GROUP_ORDER.flatMap(([label, exchanges]) => {
    const inGroup = rows
      .filter((row) => exchanges.includes(row.exchange))
      .sort((a, b) => rank(a) - rank(b) || a.key.localeCompare(b.key));
    return inGroup.length > 0 ? [{ label, rows: inGroup }] : [];
  });
}

// Made once: `toLocaleString` builds a formatter per call, per row, per render.
const expiryMonth = new Intl.DateTimeFormat("en-GB", { month: "short", timeZone: "UTC" });

/** "5 Feb 2026": an exchange's calendar date, already a date in India, so no time zone to apply. */
export function formatExpiry(expiry: string): string {
  const [y, m, d] = expiry.split("-").map(Number);
  if (!y || !m || !d) return expiry;
  return `${d} ${expiryMonth.format(Date.UTC(y, m - 1, d))} ${y}`;
}

/** Quoted keys the instrument list does not describe (a custom instrument added since it came). */
export function undescribedKeys(prices: Prices, described: readonly InstrumentInfo[]): string[] {
  const known = new Set([...SHIPPED_INSTRUMENTS, ...described].map((spec) => spec.key));
  return quotedKeys(prices)
    .map(([, key]) => key)
    .filter((key) => !known.has(key));
}
