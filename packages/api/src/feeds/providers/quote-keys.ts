import { QUOTE_KEYS, type QuoteSource } from "@spreadwatch/core";

/** Every quote key is unique across sources (GC, GOLD, XAUUSD, NIFTY50, USDINR…), so config names keys alone. */
export const ALL_KEYS = Object.values(QUOTE_KEYS).flat() as string[];

const SOURCE_OF = new Map<string, QuoteSource>(
  Object.entries(QUOTE_KEYS).flatMap(([source, keys]) =>
    (keys as readonly string[]).map((key) => [key, source as QuoteSource] as const),
  ),
);

export function sourceOf(key: string): QuoteSource {
  const source = SOURCE_OF.get(key);
  if (!source) throw new Error(`unknown quote key ${key}`);
  return source;
}
