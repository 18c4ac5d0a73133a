import { type InstrumentSpec, isBookSource, type Quote, type QuoteSource } from "@spreadwatch/core";
import { HealthTracker } from "../health.ts";
import { httpGet, readJson } from "../http.ts";
import { type PollingFeedOptions, pollingFeed } from "../poll-loop.ts";
import { changeFilter, defaultLogger, onceLogger, type Provider } from "../provider.ts";
import { configInstruments, groupOf, specOf } from "../quote-keys.ts";
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

/** A dot path as the config takes it (`data.0.last`). */
export const DOT_PATH = /^[^.\s]+(\.[^.\s]+)*$/;

function mapQuote(
  json: unknown,
  mapping: JsonQuoteMapping,
  source: QuoteSource,
  receivedAt: number,
  delayed: boolean,
): Mapped {
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

/**
 * Where each key in use is read: its mapping in the config, else the instrument's own http-json
 * `source.symbol` as the price's dot path; with the reason for a key it cannot read.
 */
function planOf(
  instruments: ReadonlyMap<string, InstrumentSpec | undefined>,
  configured: readonly JsonQuoteMapping[],
): {
  mappings: Array<{ mapping: JsonQuoteMapping; source: QuoteSource }>;
  missing: Record<string, string>;
} {
  const byKey = new Map(configured.map((m) => [m.key, m]));
  const mappings: Array<{ mapping: JsonQuoteMapping; source: QuoteSource }> = [];
  const missing: Record<string, string> = {};
  for (const key of instruments.keys()) {
    const spec = specOf(key, instruments);
    const source = groupOf(spec);
    const path = spec?.source?.provider === "http-json" ? spec.source.symbol : undefined;
    const mapping = byKey.get(key) ?? (path !== undefined ? { key, price: path } : undefined);
    if (!source) missing[key] = `${key} is not in the instrument catalogue`;
    else if (!mapping) missing[key] = `no mapping for ${key} in this provider's quotes`;
    else if (path !== undefined && !byKey.has(key) && !DOT_PATH.test(path))
      missing[key] = `${path} is not a dot path such as data.last`;
    else if (!isBookSource(source) && !mapping.price)
      missing[key] = `${key} is a single price: map price, not bid/ask`;
    else mappings.push({ mapping, source });
  }
  return { mappings, missing };
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
  let plan = planOf(configInstruments(options.quotes.map((q) => q.key)), options.quotes);
  tracker.setMissing(plan.missing);

  async function poll(onQuote: (quote: Quote) => void, signal: AbortSignal) {
    const { mappings } = plan;
    if (mappings.length === 0) return;
    const response = await httpGet(options.url, {
      headers: { accept: "application/json", ...options.headers },
      signal,
    });
    const json = await readJson(response);
    const receivedAt = now();
    for (const { mapping, source } of mappings) {
      const mapped = mapQuote(json, mapping, source, receivedAt, options.delayed ?? false);
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

  return {
    ...pollingFeed(options, tracker, log, poll),
    setInstruments(specs) {
      const instruments = new Map(specs.map((spec) => [spec.key, spec]));
      plan = planOf(instruments, options.quotes);
      tracker.setKeys(instruments.keys());
      tracker.setMissing(plan.missing);
    },
  };
}
