import { isBookSource, type Quote } from "@spreadwatch/core";
import { HealthTracker } from "../health.ts";
import { httpGet, readJson } from "../http.ts";
import { type PollingFeedOptions, pollingFeed } from "../poll-loop.ts";
import { changeFilter, defaultLogger, onceLogger, type Provider } from "../provider.ts";
import { sourceOf } from "../quote-keys.ts";
import { readPath, toNumber, toTimestamp } from "./json-path.ts";

/** Where one key's numbers sit in the answer, as dot paths (`data.0.last`). */
export interface JsonQuoteMapping {
  key: string;
  /** The last price: a single-price key's price, or a book's both sides when bid/ask are absent. */
  price?: string;
  bid?: string;
  ask?: string;
  /** The quote's time; the arrival time when absent. */
  ts?: string;
}

export interface HttpJsonOptions extends PollingFeedOptions {
  url: string;
  headers?: Readonly<Record<string, string>>;
  quotes: readonly JsonQuoteMapping[];
  /** Mark the quotes delayed (the source publishes late). */
  delayed?: boolean;
}

type Mapped = { quote: Quote } | { missing: string };

function mapQuote(
  json: unknown,
  mapping: JsonQuoteMapping,
  receivedAt: number,
  delayed: boolean,
): Mapped {
  const source = sourceOf(mapping.key);
  const at = (path: string | undefined) => (path ? toNumber(readPath(json, path)) : undefined);
  const ts = (mapping.ts && toTimestamp(readPath(json, mapping.ts))) || receivedAt;
  const base: Quote = { source, key: mapping.key, ts, ...(delayed && { delayed: true }) };
  const price = at(mapping.price);
  if (isBookSource(source)) {
    const bid = at(mapping.bid);
    const ask = at(mapping.ask);
    if (bid !== undefined || ask !== undefined) {
      return {
        quote: { ...base, ...(bid !== undefined && { bid }), ...(ask !== undefined && { ask }) },
      };
    }
    if (price !== undefined) return { quote: { ...base, bid: price, ask: price, lastOnly: true } };
    return { missing: [mapping.bid, mapping.ask, mapping.price].filter(Boolean).join(", ") };
  }
  if (price !== undefined) return { quote: { ...base, price } };
  return { missing: mapping.price ?? "price" };
}

/** Polls a JSON URL and maps its fields to quotes, for sources Spreadwatch does not ship. */
export function createHttpJsonProvider(options: HttpJsonOptions): Provider {
  const now = options.now ?? Date.now;
  const log = options.log ?? defaultLogger;
  const note = onceLogger(log);
  const tracker = new HealthTracker({
    name: options.name,
    kind: "http-json",
    keys: options.quotes.map((q) => q.key),
    delayed: options.delayed ?? false,
    staleAfterMs: options.staleAfterMs,
    now,
  });
  const changed = changeFilter();

  async function poll(onQuote: (quote: Quote) => void, signal: AbortSignal) {
    const response = await httpGet(options.url, {
      headers: { accept: "application/json", ...options.headers },
      signal,
    });
    const json = await readJson(response);
    const receivedAt = now();
    for (const mapping of options.quotes) {
      const mapped = mapQuote(json, mapping, receivedAt, options.delayed ?? false);
      if ("missing" in mapped) {
        note(mapping.key, `${options.name}: no number for ${mapping.key} at ${mapped.missing}`);
        continue;
      }
      note(mapping.key, undefined);
      if (changed(mapped.quote)) {
        tracker.quote();
        onQuote(mapped.quote);
      }
    }
  }

  return pollingFeed(options, tracker, log, poll);
}
