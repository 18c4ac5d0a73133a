import { isBookSource, type Quote } from "@spreadwatch/core";
import { HealthTracker } from "../health.ts";
import { HttpError, httpGet, readJson } from "../http.ts";
import { type PollingFeedOptions, pollingFeed } from "../poll-loop.ts";
import { changeFilter, defaultLogger, onceLogger, type Provider } from "../provider.ts";
import { sourceOf } from "../quote-keys.ts";
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
  result: YahooResult,
  receivedAt: number,
): Quote | undefined {
  const source = sourceOf(key);
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

/** Yahoo Finance's v7 quote endpoint, every key in one request per poll. Free, delayed. */
export function createYahooProvider(options: YahooOptions): Provider {
  const now = options.now ?? Date.now;
  const log = options.log ?? defaultLogger;
  const note = onceLogger(log);
  const baseUrl = (options.baseUrl ?? YAHOO_BASE_URL).replace(/\/+$/, "");
  const symbolOf = (key: string) => options.symbols?.[key] ?? YAHOO_SYMBOLS[key] ?? key;
  const keysBySymbol = new Map<string, string[]>();
  for (const key of options.keys) {
    const symbol = symbolOf(key);
    keysBySymbol.set(symbol, [...(keysBySymbol.get(symbol) ?? []), key]);
  }
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

  async function poll(onQuote: (quote: Quote) => void, signal: AbortSignal) {
    const url = new URL(`${baseUrl}/v7/finance/quote`);
    url.searchParams.set("symbols", [...keysBySymbol.keys()].join(","));
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
      for (const key of keysBySymbol.get(result.symbol) ?? []) {
        seen.add(key);
        const quote = yahooQuote(key, result, receivedAt);
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
    for (const key of options.keys) {
      if (!seen.has(key))
        note(key, `${options.name}: Yahoo returned nothing for ${symbolOf(key)} (${key})`);
    }
  }

  return pollingFeed(options, tracker, log, poll);
}
