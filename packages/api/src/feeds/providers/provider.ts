import type { InstrumentSpec, Quote } from "@spreadwatch/core";
import { warnEvery } from "../../log.ts";
import type { ProviderHealth } from "./health.ts";

/**
 * One source of quotes inside the composite feed. `start` returns at once and never throws;
 * failures show in `health()` and the log, and the provider keeps retrying until `stop`.
 */
export interface Provider {
  readonly name: string;
  start(onQuote: (quote: Quote) => void): void;
  stop(): Promise<void> | void;
  health(): ProviderHealth;
  /**
   * The instruments in use routed to this provider (the composite feed decides which): before
   * `start` it is what to start with, after it a running provider starts and stops quoting keys
   * to match without dropping the others. Keys it cannot serve go in its health's `missing`.
   * Until it is called a provider quotes the keys of its config.
   */
  setInstruments?(instruments: readonly InstrumentSpec[]): void;
}

export type Logger = (message: string) => void;

/** The same warning (numbers aside: waits, ages, codes) is logged at most once a minute. */
export const MARKET_DATA_WARNING_INTERVAL_MS = 60_000;

/**
 * Market data warnings go to the server's log, rate-limited per kind: a provider that flaps
 * ("closed (code 1006); reconnecting" every few seconds) says so once a minute, with a count of
 * what it held back, instead of flooding the log.
 */
export const defaultLogger: Logger = (message) => {
  const kind = message.replace(/-?\d+(\.\d+)?/g, "#");
  warnEvery(`market-data:${kind}`, MARKET_DATA_WARNING_INTERVAL_MS, {}, `market data: ${message}`);
};

/**
 * Logs a message for a topic only when it differs from the last one for that topic, so a
 * source that keeps omitting a field says so once, not every poll.
 */
export function onceLogger(log: Logger): (topic: string, message: string | undefined) => void {
  const last = new Map<string, string>();
  return (topic, message) => {
    if (message === undefined) {
      last.delete(topic);
      return;
    }
    if (last.get(topic) === message) return;
    last.set(topic, message);
    log(message);
  };
}

/** Same quote twice (same prices, same time) is dropped: polled sources repeat themselves. */
export function changeFilter(): (quote: Quote) => boolean {
  const last = new Map<string, string>();
  return (quote) => {
    const id = `${quote.source}:${quote.key}`;
    const fingerprint = `${quote.ts}|${quote.bid}|${quote.ask}|${quote.price}`;
    if (last.get(id) === fingerprint) return false;
    last.set(id, fingerprint);
    return true;
  };
}
