import { type Prices, priceField } from "@spreadwatch/core";

const SECTIONS = ["cme", "mcx", "spot", "zerodha", "fx"] as const;

/** Answers per prices object: snapshots are shared until the hub changes, so is this. */
const made = new WeakMap<Prices, Prices>();

/**
 * `/api/prices` with each entry's `contract` where the feed named one (docs/user-guide.md
 * "Instruments"): a poller reads it beside the price. The stream keeps `contracts` as its own
 * section instead, so a contract is sent when it changes, not with every tick.
 */
export function pricesWithContracts(prices: Prices): Prices {
  const contracts = prices.contracts;
  if (!contracts) return prices;
  let answer = made.get(prices);
  if (answer) return answer;
  answer = { ...prices };
  const from = prices as unknown as Record<string, Record<string, object | undefined>>;
  const sections = answer as unknown as Record<string, Record<string, object | undefined>>;
  const copied = new Set<string>();
  for (const [key, entry] of Object.entries(contracts)) {
    if (!entry) continue;
    for (const name of SECTIONS) {
      const field = name === "zerodha" ? priceField(key) : key;
      const priced = from[name]?.[field];
      if (!priced) continue;
      // Copied, never changed in place: the hub's snapshot is the stream's too.
      if (!copied.has(name)) sections[name] = { ...from[name] };
      copied.add(name);
      (sections[name] as Record<string, object>)[field] = { ...priced, contract: entry.contract };
    }
  }
  made.set(prices, answer);
  return answer;
}
