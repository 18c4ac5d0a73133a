import { INSTRUMENTS, SIDES } from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";

/** What uses an instrument: it cannot be taken out of use while anything does. */
export interface UsedBy {
  spreads: number;
  alerts: number;
}

interface SpreadDefinition {
  /** The instrument keys it reads. */
  legs: readonly string[];
  /** The symbols alerts and charts name it by. */
  symbols: readonly string[];
}

/**
 * The built-in spreads (docs/spec.md §2): per commodity the CME/MCX pair at USDINR, spot gold and
 * silver against their futures, and GIFT NIFTY against NIFTY 50.
 */
const BUILT_IN_SPREADS: readonly SpreadDefinition[] = [
  ...INSTRUMENTS.map((i) => ({
    legs: [i.cmeKey, i.mcxKey, "USDINR"],
    symbols: SIDES.map((side) => `${i.id}_${side}`),
  })),
  { legs: ["GC", "XAUUSD"], symbols: ["XAU_SPOT"] },
  { legs: ["SI", "XAGUSD"], symbols: ["XAG_SPOT"] },
  { legs: ["GIFTNIFTY", "NIFTY50"], symbols: ["NIFTY"] },
];

/** How many built-in spreads read `key`, and how many alerts (anyone's) are on those spreads. */
export async function usedBy(store: Store, key: string): Promise<UsedBy> {
  const spreads = BUILT_IN_SPREADS.filter((spread) => spread.legs.includes(key));
  const symbols = spreads.flatMap((spread) => spread.symbols);
  return { spreads: spreads.length, alerts: await store.alerts.countOnSymbols(symbols) };
}

const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** "GOLD is used by 1 built-in spread and 2 alerts". */
export function usedBySentence(key: string, used: UsedBy): string {
  const parts = [
    ...(used.spreads > 0 ? [counted(used.spreads, "built-in spread")] : []),
    ...(used.alerts > 0 ? [counted(used.alerts, "alert")] : []),
  ];
  return `${key} is used by ${parts.join(" and ")}`;
}

export const isUsed = (used: UsedBy) => used.spreads > 0 || used.alerts > 0;
