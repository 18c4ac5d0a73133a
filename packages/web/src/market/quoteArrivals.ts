import type { Prices } from "@spreadwatch/core";

type Entry = { bid?: number; ask?: number; price?: number; timestamp: number };

/** Every price entry of a snapshot by its quote key (keys are unique across sources). */
function entries(prices: Prices): Array<[string, Entry | undefined]> {
  return [
    ...Object.entries(prices.cme),
    ...Object.entries(prices.mcx),
    ...Object.entries(prices.spot),
    ["NIFTY50", prices.zerodha.nifty50],
    ["GIFTNIFTY", prices.zerodha.giftnifty],
    ["USDINR", prices.fx.USDINR],
  ];
}

/**
 * When this browser last saw each key's price change. The first snapshot only sets the baseline:
 * a price already there when the page opened may be hours old.
 */
export class QuoteArrivals {
  private readonly fingerprints = new Map<string, string>();
  private readonly changedAt = new Map<string, number>();

  observe(prices: Prices | undefined, now: number): void {
    if (!prices) return;
    for (const [key, entry] of entries(prices)) {
      if (!entry) continue;
      const fingerprint = `${entry.timestamp}|${entry.bid}|${entry.ask}|${entry.price}`;
      const before = this.fingerprints.get(key);
      if (before === fingerprint) continue;
      this.fingerprints.set(key, fingerprint);
      if (before !== undefined) this.changedAt.set(key, now);
    }
  }

  /** The latest change seen among `keys`, or undefined when none was seen. */
  latest(keys: readonly string[]): number | undefined {
    let latest: number | undefined;
    for (const key of keys) {
      const at = this.changedAt.get(key);
      if (at !== undefined && (latest === undefined || at > latest)) latest = at;
    }
    return latest;
  }
}
