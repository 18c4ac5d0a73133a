import type { Quote } from "@spreadwatch/core";

/**
 * Quotes the hub accepted, per source and key. The quote path runs hundreds of thousands of
 * times a second in the benchmarks (BENCHMARKS.md), so it only bumps a number found by two map
 * look-ups: no label string is built and the metrics library is not touched; /metrics reads the
 * tally when it is scraped.
 */
export class QuoteTally {
  private readonly bySource = new Map<string, Map<string, { n: number }>>();

  count(quote: Quote): void {
    let keys = this.bySource.get(quote.source);
    if (keys === undefined) {
      keys = new Map();
      this.bySource.set(quote.source, keys);
    }
    const cell = keys.get(quote.key);
    if (cell === undefined) keys.set(quote.key, { n: 1 });
    else cell.n++;
  }

  *entries(): Iterable<{ source: string; key: string; count: number }> {
    for (const [source, keys] of this.bySource)
      for (const [key, cell] of keys) yield { source, key, count: cell.n };
  }
}
