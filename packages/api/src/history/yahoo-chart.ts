import {
  contractFor,
  type Exchange,
  type InstrumentSpec,
  parseInstrumentKey,
} from "@spreadwatch/core";
import { HttpError, httpGet, readJson } from "../feeds/providers/http.ts";
import { monthContract, yahooSymbol } from "../feeds/providers/yahoo/yahoo.ts";
import { callOutbound } from "../outbound/policy.ts";
import type { HistoryCandle } from "./candle-sink.ts";

const DAY_MS = 86_400_000;
/** Yahoo serves 1-minute bars for the last 30 days only, 7 days a request. */
export const YAHOO_MINUTE_DAYS = 30;
export const YAHOO_MINUTE_DAYS_PER_REQUEST = 7;
/** 5-minute bars reach back 60 days. */
export const YAHOO_FIVE_MINUTE_DAYS = 60;

export type YahooInterval = "1m" | "5m";

/** One chart request: a symbol's bars of `interval` in [from, to). */
export interface YahooWindow {
  from: number;
  to: number;
  interval: YahooInterval;
}

/**
 * The requests that cover [from, to) as finely as Yahoo allows on `now`: 1-minute bars within
 * the last 30 days, 7 days a request, and 5-minute bars before that back to 60 days (what is
 * older is left out). Oldest first.
 */
export function yahooWindows(from: number, to: number, now: number): YahooWindow[] {
  const out: YahooWindow[] = [];
  // A minute of margin: a window opening exactly 30 days back is refused by Yahoo's clock.
  const minuteFloor = now - YAHOO_MINUTE_DAYS * DAY_MS + 60_000;
  const start = Math.max(from, now - YAHOO_FIVE_MINUTE_DAYS * DAY_MS + 60_000);
  if (start < Math.min(to, minuteFloor))
    out.push({ from: start, to: Math.min(to, minuteFloor), interval: "5m" });
  for (let t = Math.max(start, minuteFloor); t < to; t += YAHOO_MINUTE_DAYS_PER_REQUEST * DAY_MS)
    out.push({
      from: t,
      to: Math.min(to, t + YAHOO_MINUTE_DAYS_PER_REQUEST * DAY_MS),
      interval: "1m",
    });
  return out;
}

const finite = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/**
 * The bars of a v8 chart answer (`chart.result[0].timestamp[]` in epoch seconds and
 * `indicators.quote[0].open/high/low/close[]`), oldest first. A bar with a null price (Yahoo
 * sends them for minutes without trades) is left out. Throws with Yahoo's own description on
 * `chart.error`.
 */
export function parseYahooChart(body: unknown): HistoryCandle[] {
  const chart = (body as { chart?: { result?: unknown; error?: unknown } })?.chart;
  const error = chart?.error as { description?: unknown; code?: unknown } | null | undefined;
  if (error) throw new Error(`Yahoo's chart answer: ${String(error.description ?? error.code)}`);
  if (!Array.isArray(chart?.result)) throw new Error("Yahoo's chart answer has no chart.result");
  const result = chart.result[0] as
    | { timestamp?: unknown; indicators?: { quote?: Array<Record<string, unknown>> } }
    | undefined;
  // A range without trades comes back with no timestamp at all.
  if (!result || !Array.isArray(result.timestamp)) return [];
  const quote = result.indicators?.quote?.[0] ?? {};
  const column = (name: string): unknown[] => {
    const values = quote[name];
    return Array.isArray(values) ? values : [];
  };
  const [open, high, low, close] = ["open", "high", "low", "close"].map(column) as unknown[][];
  const candles: HistoryCandle[] = [];
  result.timestamp.forEach((seconds, i) => {
    const t = finite(seconds);
    const [o, h, l, c] = [open?.[i], high?.[i], low?.[i], close?.[i]].map(finite);
    if (t === undefined || o === undefined || h === undefined || l === undefined || c === undefined)
      return;
    candles.push({ t: t * 1000, o, h, l, c });
  });
  return candles.sort((a, b) => a.t - b.t);
}

const EXCHANGE_SUFFIX: Partial<Record<Exchange, string>> = {
  COMEX: "CMX",
  NYMEX: "NYM",
  CME: "CME",
  CBOT: "CBT",
};

/**
 * The Yahoo symbol whose past is the contract a key quotes on `day`: a month's own symbol
 * (GCG27.CMX), never the front month's glued series (GC=F), which jumps at Yahoo's roll; spot,
 * FX and indices their one symbol. The contract's name where it has one (GCG27).
 */
export function yahooHistorySymbol(
  key: string,
  spec: InstrumentSpec | undefined,
  configured: string | undefined,
  day: string,
): { symbol: string; contract: string } | { missing: string } {
  const found = yahooSymbol(key, spec, configured, day);
  if ("missing" in found) return found;
  if (found.contract) return { symbol: found.symbol, contract: found.contract.contract };
  const suffix = spec && EXCHANGE_SUFFIX[spec.exchange];
  if (!found.symbol.endsWith("=F") || !suffix)
    return { symbol: found.symbol, contract: found.symbol };
  const { root, month } = parseInstrumentKey(key);
  const contract = contractFor(root, spec.month ?? month, day, 0, "cme");
  if (!contract) return { missing: `no contract calendar for ${root}: its past cannot be told` };
  const symbol = `${contract.symbol}.${suffix}`;
  return { symbol, contract: monthContract(symbol)?.contract ?? contract.symbol };
}

export interface YahooChartOptions {
  baseUrl: string;
  timeoutMs: number;
  attempts?: number;
  backoff?: { initialMs: number; maxMs: number };
}

/** Yahoo's v8 chart API: one window of one symbol's bars, retried with backoff, bounded in time. */
export class YahooChart {
  constructor(private readonly options: YahooChartOptions) {}

  async window(
    symbol: string,
    window: YahooWindow,
    signal?: AbortSignal,
  ): Promise<HistoryCandle[]> {
    const { baseUrl, timeoutMs, attempts = 3, backoff } = this.options;
    const url = new URL(
      `${baseUrl.replace(/\/+$/, "")}/v8/finance/chart/${encodeURIComponent(symbol)}`,
    );
    url.searchParams.set("period1", String(Math.floor(window.from / 1000)));
    url.searchParams.set("period2", String(Math.floor(window.to / 1000)));
    url.searchParams.set("interval", window.interval);
    const candles = await callOutbound(
      {
        attempts,
        attemptTimeoutMs: timeoutMs,
        initialDelayMs: backoff?.initialMs ?? 1_000,
        maxDelayMs: backoff?.maxMs ?? 30_000,
        retryIf: (error) =>
          error instanceof HttpError ? error.status === 429 || error.status >= 500 : true,
      },
      async (attemptSignal) =>
        parseYahooChart(
          await readJson(
            await httpGet(url.toString(), {
              headers: { "user-agent": "Mozilla/5.0 (compatible; spreadwatch)" },
              signal: attemptSignal,
            }),
          ),
        ),
      signal,
    );
    return candles.filter((c) => c.t >= window.from && c.t < window.to);
  }
}
