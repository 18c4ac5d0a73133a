import { alertMetricName } from "@spreadwatch/core";
import type { AlertOnSymbol, Store } from "@spreadwatch/db";
import { MID_ONLY_SYMBOLS } from "../spreads/built-ins.ts";
import type { SpreadRegistry } from "../spreads/registry.ts";

/** What uses an instrument: it cannot be taken out of use while anything does. */
export interface UsedBy {
  /** Spread definitions with a leg on it: built-in and users' alike. */
  spreads: number;
  alerts: number;
}

/** The symbols alerts name a definition by: GC_BUY and GC_SELL, SP7_BUY and SP7_SELL, XAU_SPOT. */
export function alertSymbolsOf(spread: { symbol: string }): string[] {
  return MID_ONLY_SYMBOLS.has(spread.symbol)
    ? [spread.symbol]
    : [`${spread.symbol}_BUY`, `${spread.symbol}_SELL`];
}

/** How many alerts a refusal names one by one; the rest are counted. */
const MAX_NAMED_ALERTS = 10;

/**
 * Which spread definitions (the built-ins and every user's, private ones included: a leg must
 * keep quoting for its owner) read `key`, and which alerts (anyone's) are on them: the admin
 * is told what to change before the instrument can go, not only how many.
 */
export async function usedBy(
  store: Store,
  spreads: SpreadRegistry,
  key: string,
): Promise<{ usedBy: UsedBy; sentence: string }> {
  const using = spreads.all().filter((spread) => spread.legs.some((leg) => leg.instrument === key));
  const alerts = await store.alerts.listOnSymbols(using.flatMap(alertSymbolsOf));
  const used = { spreads: using.length, alerts: alerts.length };
  return { usedBy: used, sentence: usedBySentence(key, using, alerts) };
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  const last = items.at(-1) ?? "";
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${last}` : last;
}

const plural = (n: number, noun: string) => (n === 1 ? noun : `${noun}s`);

/** "SP1_SELL at 5 (tara)", "GC_BUY z-score at 2 (bob)". */
function alertText(alert: AlertOnSymbol): string {
  const metric = alert.metric === "spread" ? "" : ` ${alertMetricName(alert.metric)}`;
  return `${alert.commodityType}${metric} at ${alert.threshold} (${alert.username})`;
}

/**
 * "GOLD is used by the built-in spread GC, the user spread “Gold calendar” (SP1) and 1 alert:
 * SP1_SELL at 5 (tara)".
 */
function usedBySentence(
  key: string,
  using: readonly { symbol: string; name: string; builtin: boolean }[],
  alerts: readonly AlertOnSymbol[],
): string {
  const builtIn = using.filter((spread) => spread.builtin).map((spread) => spread.symbol);
  const own = using
    .filter((spread) => !spread.builtin)
    .map((spread) => `“${spread.name}” (${spread.symbol})`);
  const named = alerts.slice(0, MAX_NAMED_ALERTS).map(alertText);
  const more = alerts.length - named.length;
  const parts = [
    ...(builtIn.length > 0
      ? [`the built-in ${plural(builtIn.length, "spread")} ${listed(builtIn)}`]
      : []),
    ...(own.length > 0 ? [`the user ${plural(own.length, "spread")} ${listed(own)}`] : []),
    ...(alerts.length > 0
      ? [
          `${alerts.length} ${plural(alerts.length, "alert")}: ${named.join(", ")}${
            more > 0 ? ` and ${more} more` : ""
          }`,
        ]
      : []),
  ];
  return `${key} is used by ${listed(parts)}`;
}

export const isUsed = (used: UsedBy) => used.spreads > 0 || used.alerts > 0;
