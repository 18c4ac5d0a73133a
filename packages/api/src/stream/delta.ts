import type { CalculationEntry, Prices, Quote, QuoteSource, SpreadSymbol } from "@spreadwatch/core";
import type {
  DefinitionEntry,
  DefinitionSymbol,
  ExecutableSymbol,
  MarketSnapshot,
} from "../market/hub.ts";

type Section = Exclude<keyof Prices, "timestamp">;
const SECTIONS: readonly Section[] = ["cme", "mcx", "spot", "zerodha", "fx", "contracts"];
/** The section of `Prices` a quote of each source lands in (index quotes: Zerodha's fields). */
const SECTION_OF: Record<QuoteSource, Section> = {
  cme: "cme",
  mcx: "mcx",
  spot: "spot",
  index: "zerodha",
  fx: "fx",
};

/**
 * What changed between two versions, as the hub reported it: the price sections quotes landed
 * in and the spread symbols they recomputed. Only these are compared when diffing.
 */
export class Touched {
  readonly sections = new Set<Section>();
  readonly symbols = new Set<ExecutableSymbol>();

  add(quote: Pick<Quote, "source" | "contract">, symbols: readonly ExecutableSymbol[]): void {
    this.sections.add(SECTION_OF[quote.source]);
    // A quote naming its contract may have rolled it; the diff sends only a changed one.
    if (quote.contract) this.sections.add("contracts");
    for (const symbol of symbols) this.symbols.add(symbol);
  }

  /** Definitions changed (the registry): their entries may have changed, come or gone. */
  recomputed(symbols: readonly ExecutableSymbol[]): void {
    for (const symbol of symbols) this.symbols.add(symbol);
  }

  /** A key of `source` was taken out of use: its entry and contract are gone. */
  forget(source: QuoteSource): void {
    this.sections.add(SECTION_OF[source]);
    this.sections.add("contracts");
  }

  /** Sections and symbols by name, as `sections` and `symbols` list them (another process's). */
  addNamed(sections: Iterable<string>, symbols: Iterable<ExecutableSymbol>): void {
    for (const section of sections)
      if ((SECTIONS as readonly string[]).includes(section)) this.sections.add(section as Section);
    for (const symbol of symbols) this.symbols.add(symbol);
  }

  addAll(other: Touched): void {
    for (const section of other.sections) this.sections.add(section);
    for (const symbol of other.symbols) this.symbols.add(symbol);
  }
}

/** Only the price entries that changed; one that disappeared is `null`. Sections with none are left out. */
export type PricesDelta = {
  [S in Section]?: { [K in keyof Prices[S]]?: NonNullable<Prices[S][K]> | null };
} & { timestamp: number | null };

export type CalculationsDelta = { [S in SpreadSymbol]?: CalculationEntry | null } & {
  [S in DefinitionSymbol]?: DefinitionEntry | null;
} & {
  timestamp: number | null;
};

/**
 * What `market.onSnapshot` sends (docs/design.md §3): the whole state first and after any reconnect, then
 * only what changed since the message before, so a phone is not sent 2 kB twenty times a second.
 */
export type MarketStreamMessage =
  | ({ kind: "snapshot" } & MarketSnapshot)
  | { kind: "delta"; prices: PricesDelta; calculations: CalculationsDelta };

/**
 * Entries are records of numbers and strings, a definition's with its legs' records one level
 * down (`legs.g.price`); a recomputed entry often equals the old one.
 */
function sameEntry(a: object | undefined, b: object | undefined, depth = 0): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra);
  if (keys.length !== Object.keys(rb).length) return false;
  return keys.every((key) => {
    const x = ra[key];
    const y = rb[key];
    if (x === y) return true;
    return (
      depth < 2 &&
      typeof x === "object" &&
      typeof y === "object" &&
      x !== null &&
      y !== null &&
      sameEntry(x, y, depth + 1)
    );
  });
}

/** The changed entries of `to` against `from`, `null` for one `to` lacks; undefined when none. */
export function diffEntries(
  from: Readonly<Record<string, object>>,
  to: Readonly<Record<string, object>>,
): Record<string, object | null> | undefined {
  return from === to ? undefined : diffRecord(from, to);
}

function diffRecord(
  from: Record<string, object | undefined | number | null>,
  to: Record<string, object | undefined | number | null>,
): Record<string, object | null> | undefined {
  let out: Record<string, object | null> | undefined;
  const visit = (key: string) => {
    if (key === "timestamp") return;
    const a = from[key] as object | undefined;
    const b = to[key] as object | undefined;
    if (sameEntry(a, b)) return;
    out ??= {};
    out[key] = b ?? null;
  };
  for (const key in to) visit(key);
  for (const key in from) if (!(key in to)) visit(key);
  return out;
}

/**
 * The prices part of a delta: each section's changed entries (only `only`'s sections when
 * given), in SECTIONS order so the bytes are the same whatever order the quotes came in.
 */
function diffPrices(
  from: MarketSnapshot,
  to: MarketSnapshot,
  only?: ReadonlySet<Section>,
): Record<string, unknown> {
  const prices: Record<string, unknown> = {};
  for (const section of SECTIONS) {
    if (only && !only.has(section)) continue;
    const changed = diffRecord(
      (from.prices[section] ?? {}) as Record<string, object>,
      (to.prices[section] ?? {}) as Record<string, object>,
    );
    if (changed) prices[section] = changed;
  }
  prices.timestamp = to.prices.timestamp;
  return prices;
}

/**
 * The delta that turns `from` into `to` when only `touched` can differ between them: the same
 * message as `diffSnapshots`, comparing a few entries instead of every one. A touched entry whose
 * recomputed value equals the old one is left out, as there.
 */
export function diffTouched(
  from: MarketSnapshot,
  to: MarketSnapshot,
  touched: Touched,
): Extract<MarketStreamMessage, { kind: "delta" }> {
  const prices = diffPrices(from, to, touched.sections);
  const calculations: Record<string, unknown> = {};
  for (const symbol of touched.symbols) {
    const a = from.calculations[symbol];
    const b = to.calculations[symbol];
    if (!sameEntry(a, b)) calculations[symbol] = b ?? null;
  }
  calculations.timestamp = to.calculations.timestamp;
  return {
    kind: "delta",
    prices: prices as PricesDelta,
    calculations: calculations as CalculationsDelta,
  };
}

/**
 * The delta that turns `from` into `to`. Cheap: hub snapshots replace changed entries and share
 * the rest, so most entries are the same object and the value check runs only for replaced ones.
 */
export function diffSnapshots(
  from: MarketSnapshot,
  to: MarketSnapshot,
): Extract<MarketStreamMessage, { kind: "delta" }> {
  const prices = diffPrices(from, to);
  const calculations: Record<string, unknown> = {
    ...diffRecord(from.calculations, to.calculations),
    timestamp: to.calculations.timestamp,
  };
  return {
    kind: "delta",
    prices: prices as PricesDelta,
    calculations: calculations as CalculationsDelta,
  };
}
