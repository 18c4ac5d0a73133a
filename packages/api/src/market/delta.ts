import type { CalculationEntry, Prices, SpreadSymbol } from "@spreadwatch/core";
import type { MarketSnapshot } from "./hub.ts";

type Section = Exclude<keyof Prices, "timestamp">;
const SECTIONS: readonly Section[] = ["cme", "mcx", "spot", "zerodha", "fx"];

/** Only the price entries that changed; one that disappeared is `null`. Sections with none are left out. */
export type PricesDelta = {
  [S in Section]?: { [K in keyof Prices[S]]?: NonNullable<Prices[S][K]> | null };
} & { timestamp: number | null };

export type CalculationsDelta = { [S in SpreadSymbol]?: CalculationEntry | null } & {
  timestamp: number | null;
};

/**
 * What `market.onSnapshot` sends (DESIGN §3): the whole state first and after any reconnect, then
 * only what changed since the message before, so a phone is not sent 2 kB twenty times a second.
 */
export type MarketStreamMessage =
  | ({ kind: "snapshot" } & MarketSnapshot)
  | { kind: "delta"; prices: PricesDelta; calculations: CalculationsDelta };

/** Entries are flat records of numbers and strings; a recomputed entry often equals the old one. */
function sameEntry(a: object | undefined, b: object | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra);
  if (keys.length !== Object.keys(rb).length) return false;
  return keys.every((key) => ra[key] === rb[key]);
}

/** The changed entries of `to` against `from`, `null` for one `to` lacks; undefined when none. */
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
 * The delta that turns `from` into `to`. Cheap: hub snapshots replace changed entries and share
 * the rest, so most entries are the same object and the value check runs only for replaced ones.
 */
export function diffSnapshots(
  from: MarketSnapshot,
  to: MarketSnapshot,
): Extract<MarketStreamMessage, { kind: "delta" }> {
  const prices: Record<string, unknown> = {};
  for (const section of SECTIONS) {
    const changed = diffRecord(
      from.prices[section] as Record<string, object>,
      to.prices[section] as Record<string, object>,
    );
    if (changed) prices[section] = changed;
  }
  prices.timestamp = to.prices.timestamp;
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
