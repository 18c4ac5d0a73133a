import {
  BUILT_IN_KEYS,
  groupOfExchange,
  type InstrumentSpec,
  type QuoteSource,
  shippedInstrument,
} from "@spreadwatch/core";

/** The fifteen built-in keys (GC, GOLD, XAUUSD, NIFTY50, USDINR…): unique across sources. */
export const ALL_KEYS: readonly string[] = BUILT_IN_KEYS;

/**
 * The instrument a provider quotes for a key: the one it was handed by the instruments in use,
 * else the shipped catalogue's (docs/instruments.md). Undefined for a key neither knows, whose
 * price group (and so its quote's `source`) cannot be told.
 */
export function specOf(
  key: string,
  given: ReadonlyMap<string, InstrumentSpec | undefined>,
): InstrumentSpec | undefined {
  return given.get(key) ?? shippedInstrument(key);
}

/** The price group a key's quotes go under (`mcx`, `cme`, `spot`, `index`, `fx`), if known. */
export function groupOf(spec: InstrumentSpec | undefined): QuoteSource | undefined {
  return spec ? groupOfExchange(spec.exchange) : undefined;
}

/** Config keys as the instruments a provider starts with: the shipped spec where there is one. */
export function configInstruments(
  keys: readonly string[],
): Map<string, InstrumentSpec | undefined> {
  return new Map(keys.map((key) => [key, shippedInstrument(key)]));
}
