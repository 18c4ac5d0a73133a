import type { InstrumentSpec, Quote } from "@spreadwatch/core";
import type { ProviderHealth } from "./providers/health.ts";

/** A source of quotes (docs/design.md §4). `start` returns once the feed is running. */
export interface Feed {
  readonly name: string;
  start(onQuote: (quote: Quote) => void): Promise<void> | void;
  stop(): Promise<void> | void;
  /**
   * The instruments in use (docs/instruments.md): called before `history` and `start`, and again
   * whenever an admin adds or removes one; a running feed starts and stops quoting keys to match,
   * without dropping the others. Feeds without it quote what they were built for.
   */
  setInstruments?(instruments: readonly InstrumentSpec[]): void;
  /**
   * Made-up past quotes from `from` to `to` (a simulator's backfill), in time order, a batch per
   * moment. The live feed then carries on from where the history ended.
   */
  history?(from: number, to: number): Iterable<Quote[]>;
  /**
   * Made-up past quotes of these instruments alone from `from` to `to`, in time order, a batch
   * per moment: the past of an instrument put in use while the feed runs (docs/formulas.md,
   * "History from the legs"). It must not disturb the live quotes.
   */
  historyOf?(instruments: readonly InstrumentSpec[], from: number, to: number): Iterable<Quote[]>;
  /** One entry per provider, for feeds that know their sources; the server watches the rest. */
  health?(): ProviderHealth[];
  /** Without a quote for this long the feed is stale and /api/health answers 503 (default 10 s). */
  readonly staleAfterMs?: number;
}
