import {
  applyQuote,
  type Calculations,
  type CostRates,
  calculateSymbol,
  type Duties,
  defaultCostRates,
  emptyPrices,
  isKnownQuoteKey,
  type Prices,
  type Quote,
  type QuoteSource,
  removePrice,
  type SpreadSymbol,
  symbolsAffectedBy,
  withPerLot,
} from "@spreadwatch/core";
import { warnEvery } from "../log.ts";

export interface MarketSnapshot {
  prices: Prices;
  calculations: Calculations;
}

/** What one accepted quote changed: the quote itself and the spread symbols recomputed for it. */
export interface HubUpdate {
  quote: Quote;
  symbols: readonly SpreadSymbol[];
  /**
   * The hub's live state, valid during the call only: read, never keep or change. Entries here
   * lack `perLot` (listeners read spreads); `snapshot()` is what carries it.
   */
  calculations: Readonly<Calculations>;
  prices: Readonly<Prices>;
}

export type HubListener = (update: HubUpdate) => void;

/**
 * The only holder of prices: the latest quote per instrument and the spreads derived from them.
 * A quote recomputes only the symbols it can affect; listeners hear of every accepted quote.
 */
export class MarketHub {
  private readonly prices: Prices = emptyPrices();
  /** Live entries, as calculated: no perLot (see `published`). */
  private readonly calculations: Calculations = { timestamp: null };
  /**
   * The entries snapshots share, with their standard-lot perLot: rebuilt in `snapshot()` only
   * for the symbols changed since the last one, so a burst of quotes (or the 13 symbols a USDINR
   * tick moves) costs one wrapper per symbol per version, not one per quote.
   */
  private readonly published: Calculations = { timestamp: null };
  private readonly unpublished = new Set<SpreadSymbol>();
  private readonly listeners = new Set<HubListener>();
  private version = 0;
  private cached: { version: number; snapshot: MarketSnapshot } | undefined;

  constructor(
    private readonly duties: Duties,
    /** Read by market.costRates, so a browser's own lot choice is costed at the same rates. */
    readonly costRates: CostRates = defaultCostRates(),
    /**
     * Whether a quote's key is an instrument in use under its source's group (the catalogue
     * answers on a server); by default the fifteen built-in keys.
     */
    private readonly inUse: (source: QuoteSource, key: string) => boolean = isKnownQuoteKey,
  ) {}

  /** Applies a quote; returns false (and tells nobody) when the quote carries nothing usable. */
  ingest(quote: Quote): boolean {
    if (!this.inUse(quote.source, quote.key) || !applyQuote(this.prices, quote)) return false;
    const symbols = this.recalculate(quote);
    const update: HubUpdate = {
      quote,
      symbols,
      calculations: this.calculations,
      prices: this.prices,
    };
    for (const listener of this.listeners) {
      try {
        listener(update);
      } catch (error) {
        // One faulty subscriber must not stop prices reaching the others, nor flood the log at
        // every quote.
        warnEvery("market-hub-listener", 60_000, { err: error }, "market hub listener failed");
      }
    }
    return true;
  }

  /**
   * Forgets an instrument taken out of use: its price and contract go from every snapshot from
   * now on. Tells no listener (no quote came); the caller tells the stream. True if it had a price.
   */
  forget(source: QuoteSource, key: string): boolean {
    if (!removePrice(this.prices, source, key)) return false;
    this.recalculate({ source, key });
    return true;
  }

  /** Recomputes the spreads a key feeds and makes the state a new version. */
  private recalculate(changed: Pick<Quote, "source" | "key">): readonly SpreadSymbol[] {
    const symbols = symbolsAffectedBy(changed);
    for (const symbol of symbols) {
      const entry = calculateSymbol(symbol, this.prices, this.duties);
      if (entry) this.calculations[symbol] = entry;
      else delete this.calculations[symbol];
      this.unpublished.add(symbol);
    }
    this.calculations.timestamp = this.prices.timestamp;
    this.version++;
    return symbols;
  }

  subscribe(listener: HubListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /**
   * An immutable copy of the current state, shared by every reader until the next quote.
   * Entries are replaced (never mutated) on update, so copying the maps one level deep suffices.
   */
  snapshot(): MarketSnapshot {
    if (this.cached?.version === this.version) return this.cached.snapshot;
    this.publishCalculations();
    const p = this.prices;
    const snapshot: MarketSnapshot = {
      prices: {
        cme: { ...p.cme },
        mcx: { ...p.mcx },
        spot: { ...p.spot },
        zerodha: { ...p.zerodha },
        fx: { ...p.fx },
        ...(p.contracts && { contracts: { ...p.contracts } }),
        timestamp: p.timestamp,
      },
      calculations: { ...this.published },
    };
    this.cached = { version: this.version, snapshot };
    return snapshot;
  }

  /** Gives each symbol changed since the last snapshot its perLot-carrying entry. */
  private publishCalculations(): void {
    for (const symbol of this.unpublished) {
      const entry = withPerLot(this.calculations[symbol], this.costRates);
      if (entry) this.published[symbol] = entry;
      else delete this.published[symbol];
    }
    this.unpublished.clear();
    this.published.timestamp = this.calculations.timestamp;
  }
}
