import {
  contractFor,
  contractProduct,
  type Exchange,
  expiryDate,
  type InstrumentSpec,
  isBookSource,
  MONTH_CODES,
  parseInstrumentKey,
  type Quote,
  type QuoteSource,
  shippedInstrument,
} from "@spreadwatch/core";
import { HealthTracker } from "../health.ts";
import { HttpError, httpGet, readJson } from "../http.ts";
import { istDate } from "../market-hours.ts";
import { type PollingFeedOptions, pollingFeed } from "../poll-loop.ts";
import { changeFilter, defaultLogger, onceLogger, type Provider } from "../provider.ts";
import { configInstruments, groupOf, specOf } from "../quote-keys.ts";
import { YahooCrumb } from "./crumb.ts";

/** Yahoo's symbols for our keys: front-month futures ("=F"), spot metals, NIFTY 50, USDINR. */
export const YAHOO_SYMBOLS: Readonly<Record<string, string>> = {
  GC: "GC=F",
  SI: "SI=F",
  HG: "HG=F",
  NG: "NG=F",
  CL: "CL=F",
  XAUUSD: "XAUUSD=X",
  XAGUSD: "XAGUSD=X",
  NIFTY50: "^NSEI",
  USDINR: "INR=X",
};

/** Yahoo's suffix for a CME Group exchange's own contract symbols (GCG27.CMX, CLG27.NYM). */
const EXCHANGE_SUFFIX: Partial<Record<Exchange, string>> = {
  COMEX: "CMX",
  NYMEX: "NYM",
  CME: "CME",
  CBOT: "CBT",
};

/** A symbol and, for a month's own symbol, the contract it is (GCG27, expiring 2027-01-27). */
export interface YahooSymbol {
  symbol: string;
  contract?: { contract: string; expiry: string };
}

/**
 * The contract a month's own symbol names (GCG27.CMX → GCG27 and its last trading day from the
 * core contract calendar); undefined for a front-month (GC=F) or any other symbol.
 */
export function monthContract(symbol: string): YahooSymbol["contract"] {
  const match = /^([A-Z0-9]+?)([FGHJKMNQUVXZ])(\d{2})(?:\.[A-Z]{2,4})?$/.exec(symbol);
  const product = match && contractProduct(match[1] ?? "");
  if (!match || !product) return undefined;
  const [, root, code, yy] = match;
  const month = MONTH_CODES.indexOf(code as (typeof MONTH_CODES)[number]) + 1;
  if (!product.months.includes(month)) return undefined;
  return {
    contract: `${root}${code}${yy}`,
    expiry: expiryDate(product.expiry, 2000 + Number(yy), month),
  };
}

/**
 * Yahoo's symbol for a key on an IST day (docs/market-data.md): the instrument's own Yahoo
 * `source.symbol`, else the config's, else the built-in one (GC=F…); a CME Group future's near
 * month is ROOT=F, its next and far months their own symbols with the exchange suffix
 * (GCG27.CMX), by the core calendar; spot and FX are KEY=X. A reason where none can be told.
 */
export function yahooSymbol(
  key: string,
  spec: InstrumentSpec | undefined,
  configured: string | undefined,
  day: string,
): YahooSymbol | { missing: string } {
  const given =
    (spec?.source?.provider === "yahoo" ? spec.source.symbol : undefined) ??
    configured ??
    YAHOO_SYMBOLS[key];
  if (given) {
    // One request carries every symbol, comma-separated: a symbol must not split it.
    if (!/^[^\s,]{1,40}$/.test(given)) return { missing: `"${given}" is not a Yahoo symbol` };
    const contract = monthContract(given);
    return { symbol: given, ...(contract && { contract }) };
  }
  const suffix = spec && EXCHANGE_SUFFIX[spec.exchange];
  if (spec && suffix) {
    const { root, month: fromKey } = parseInstrumentKey(key);
    const month = spec.month ?? fromKey;
    if (month === "near") return { symbol: `${root}=F` };
    const contract = contractFor(root, month, day, 0, "cme");
    if (!contract)
      return {
        missing: `no contract calendar for ${root}: give its ${month} month's Yahoo symbol`,
      };
    return {
      symbol: `${contract.symbol}.${suffix}`,
      contract: { contract: contract.symbol, expiry: contract.expiry },
    };
  }
  if (spec?.exchange === "FX" || spec?.exchange === "SPOT") return { symbol: `${key}=X` };
  return { missing: `Yahoo has no default symbol for ${key}: give one` };
}

export const YAHOO_BASE_URL = "https://query1.finance.yahoo.com";
/** Yahoo asks for no more than this; a faster poll against Yahoo itself is refused by the config. */
export const YAHOO_MIN_POLL_MS = 2_000;

export interface YahooOptions extends PollingFeedOptions {
  keys: readonly string[];
  /** Key → Yahoo symbol, where it differs from YAHOO_SYMBOLS (e.g. a specific contract month). */
  symbols?: Readonly<Record<string, string>>;
  baseUrl?: string;
  /** Where Yahoo hands out the cookie its crumb is tied to; `crumb: false` skips both. */
  cookieUrl?: string;
  crumb?: boolean;
  /** The clock month symbols are computed by, per IST day (tests move it across a roll). */
  dateNow?: () => number;
}

interface YahooResult {
  symbol?: unknown;
  bid?: unknown;
  ask?: unknown;
  regularMarketPrice?: unknown;
  regularMarketTime?: unknown;
  /** PRE, REGULAR, POST, POSTPOST, PREPRE, CLOSED. */
  marketState?: unknown;
}

/** A price, whatever its sign (CL=F settled at −37.63 on 20 April 2020); absent when not a number. */
const finite = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/** Yahoo sends 0 for a side it has no quote for; a real bid or ask of exactly 0 does not happen. */
const side = (value: unknown): number | undefined => {
  const n = finite(value);
  return n === 0 ? undefined : n;
};

/** Yahoo sends epoch seconds; tolerate milliseconds too. */
function timeOf(value: unknown): number | undefined {
  const n = finite(value);
  if (n === undefined || n <= 0) return undefined;
  return n < 1e11 ? n * 1000 : n;
}

/**
 * One Yahoo result as a quote: the book when the market is in its regular session and Yahoo gives
 * a sane one, else the last price on both sides marked `lastOnly`. Outside REGULAR, Yahoo's bid
 * and ask are indicative leftovers (a closed market's book 3.6 % wide), never a tradable book.
 * Every Yahoo quote is `delayed`. Undefined when there is no price at all.
 */
export function yahooQuote(
  key: string,
  source: QuoteSource,
  result: YahooResult,
  receivedAt: number,
  contract?: YahooSymbol["contract"],
): Quote | undefined {
  const quote = bareQuote(key, source, result, receivedAt);
  return quote && contract ? { ...quote, ...contract } : quote;
}

function bareQuote(
  key: string,
  source: QuoteSource,
  result: YahooResult,
  receivedAt: number,
): Quote | undefined {
  const last = finite(result.regularMarketPrice);
  const ts = timeOf(result.regularMarketTime) ?? receivedAt;
  const base = { source, key, ts, delayed: true } as const;
  if (isBookSource(source)) {
    const bid = side(result.bid);
    const ask = side(result.ask);
    const regular = result.marketState === "REGULAR";
    if (regular && bid !== undefined && ask !== undefined && bid <= ask)
      return { ...base, bid, ask };
    if (last === undefined) return undefined;
    return { ...base, bid: last, ask: last, lastOnly: true };
  }
  return last === undefined ? undefined : { ...base, price: last };
}

function resultsOf(body: unknown): YahooResult[] {
  const response = (body as { quoteResponse?: { result?: unknown; error?: unknown } })
    ?.quoteResponse;
  if (Array.isArray(response?.result)) return response.result as YahooResult[];
  const error = response?.error ?? (body as { finance?: { error?: unknown } })?.finance?.error;
  const detail = (error as { description?: unknown })?.description;
  throw new Error(
    `unexpected answer: no quoteResponse.result${typeof detail === "string" ? ` (${detail})` : ""}`,
  );
}

interface Planned {
  key: string;
  source: QuoteSource;
  contract?: YahooSymbol["contract"];
}

/**
 * Yahoo Finance's v7 quote endpoint, every key in one request per poll. Free, delayed. The
 * symbols are worked out again on a new IST day (a month's own symbol rolls) and when the
 * instruments in use change; the next poll asks for the new set.
 */
export function createYahooProvider(options: YahooOptions): Provider {
  const now = options.now ?? Date.now;
  const dateNow = options.dateNow ?? now;
  const log = options.log ?? defaultLogger;
  const note = onceLogger(log);
  const baseUrl = (options.baseUrl ?? YAHOO_BASE_URL).replace(/\/+$/, "");
  let instruments = configInstruments(options.keys);
  let version = 0;
  let plan: { day: string; version: number; bySymbol: Map<string, Planned[]> } | undefined;
  const tracker = new HealthTracker({
    name: options.name,
    kind: "yahoo",
    keys: options.keys,
    delayed: true,
    staleAfterMs: options.staleAfterMs,
    now,
  });
  const crumb =
    options.crumb === false
      ? undefined
      : new YahooCrumb(baseUrl, options.cookieUrl ?? "https://fc.yahoo.com");
  const changed = changeFilter();

  function symbols(): Map<string, Planned[]> {
    const day = istDate(dateNow());
    if (plan?.day === day && plan.version === version) return plan.bySymbol;
    const bySymbol = new Map<string, Planned[]>();
    const missing: Record<string, string> = {};
    for (const key of instruments.keys()) {
      const spec = specOf(key, instruments);
      const source = groupOf(spec);
      const found = yahooSymbol(key, spec, options.symbols?.[key], day);
      if ("missing" in found) missing[key] = found.missing;
      else if (!source) missing[key] = `${key} is not in the instrument catalogue`;
      else {
        const planned: Planned = {
          key,
          source,
          ...(found.contract && { contract: found.contract }),
        };
        bySymbol.set(found.symbol, [...(bySymbol.get(found.symbol) ?? []), planned]);
      }
    }
    tracker.setMissing(missing);
    plan = { day, version, bySymbol };
    return bySymbol;
  }

  async function poll(onQuote: (quote: Quote) => void, signal: AbortSignal) {
    const bySymbol = symbols();
    if (bySymbol.size === 0) return;
    const url = new URL(`${baseUrl}/v7/finance/quote`);
    url.searchParams.set("symbols", [...bySymbol.keys()].join(","));
    const headers: Record<string, string> = {
      "user-agent": "Mozilla/5.0 (compatible; spreadwatch)",
    };
    if (crumb) {
      const auth = await crumb.get(signal);
      url.searchParams.set("crumb", auth.crumb);
      if (auth.cookie) headers.cookie = auth.cookie;
    }
    let body: unknown;
    try {
      body = await readJson(await httpGet(url.toString(), { headers, signal }));
    } catch (error) {
      // A refused crumb is refetched on the next try.
      if (error instanceof HttpError && (error.status === 401 || error.status === 403))
        crumb?.clear();
      throw error;
    }
    const receivedAt = now();
    const seen = new Set<string>();
    for (const result of resultsOf(body)) {
      if (typeof result !== "object" || result === null || typeof result.symbol !== "string")
        continue;
      for (const { key, source, contract } of bySymbol.get(result.symbol) ?? []) {
        seen.add(result.symbol);
        const quote = yahooQuote(key, source, result, receivedAt, contract);
        note(
          key,
          quote ? undefined : `${options.name}: ${result.symbol} (${key}) came without a price`,
        );
        if (quote && changed(quote)) {
          tracker.quote();
          onQuote(quote);
        }
      }
    }
    for (const [symbol, planned] of bySymbol) {
      if (seen.has(symbol)) continue;
      for (const { key } of planned)
        note(key, `${options.name}: Yahoo returned nothing for ${symbol} (${key})`);
    }
  }

  return {
    ...pollingFeed(options, tracker, log, poll),
    setInstruments(specs) {
      instruments = new Map(specs.map((spec) => [spec.key, spec]));
      version++;
      tracker.setKeys(instruments.keys());
      // Health says at once what cannot be quoted; the next poll asks for the new symbols.
      symbols();
    },
  };
}

/** The Yahoo symbol a config key starts with, for checking the config (undefined: none). */
export function defaultYahooSymbol(key: string, day: string): string | undefined {
  const found = yahooSymbol(key, shippedInstrument(key), undefined, day);
  return "symbol" in found ? found.symbol : undefined;
}
