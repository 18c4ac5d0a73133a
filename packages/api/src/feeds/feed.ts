import type { Quote } from "@spreadwatch/core";

/** A source of quotes (DESIGN §4). `start` returns once the feed is running. */
export interface Feed {
  readonly name: string;
  start(onQuote: (quote: Quote) => void): Promise<void> | void;
  stop(): Promise<void> | void;
}
