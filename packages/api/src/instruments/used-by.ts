import type { Store } from "@spreadwatch/db";
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

/**
 * How many spread definitions (the built-ins and every user's, private ones included: a leg
 * must keep quoting for its owner) read `key`, and how many alerts (anyone's) are on them.
 */
export async function usedBy(
  store: Store,
  spreads: SpreadRegistry,
  key: string,
): Promise<{ usedBy: UsedBy; sentence: string }> {
  const using = spreads.all().filter((spread) => spread.legs.some((leg) => leg.instrument === key));
  const used = {
    spreads: using.length,
    alerts: await store.alerts.countOnSymbols(using.flatMap(alertSymbolsOf)),
  };
  const builtIn = using.filter((spread) => spread.builtin).length;
  return { usedBy: used, sentence: usedBySentence(key, builtIn, used) };
}

const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** "GOLD is used by 1 built-in spread, 2 user spreads and 2 alerts". */
function usedBySentence(key: string, builtIn: number, used: UsedBy): string {
  const parts = [
    ...(builtIn > 0 ? [counted(builtIn, "built-in spread")] : []),
    ...(used.spreads > builtIn ? [counted(used.spreads - builtIn, "user spread")] : []),
    ...(used.alerts > 0 ? [counted(used.alerts, "alert")] : []),
  ];
  const last = parts.pop();
  return `${key} is used by ${parts.length > 0 ? `${parts.join(", ")} and ${last}` : last}`;
}

export const isUsed = (used: UsedBy) => used.spreads > 0 || used.alerts > 0;
