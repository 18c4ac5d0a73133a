import type { RouterOutputs } from "@spreadwatch/api";

export type MarketSnapshot = RouterOutputs["market"]["snapshot"];
/** One `market.onSnapshot` message: the whole state, or only the entries that changed. */
export type MarketStreamMessage =
  RouterOutputs["market"]["onSnapshot"] extends AsyncIterable<infer M> ? M : never;

type Entries = Record<string, unknown>;

/**
 * A copy of `base` with the changed entries set and the `null` ones removed. Untouched entries
 * keep their identity, so rows whose data did not change need not re-render.
 */
function merge<T>(base: T, changes: object): T {
  const next = { ...base } as Entries;
  for (const [key, value] of Object.entries(changes)) {
    // `timestamp` is a plain field (null before the first quote), never an entry to remove.
    if (value === null && key !== "timestamp") delete next[key];
    else next[key] = value;
  }
  return next as T;
}

/**
 * The state after a stream message: a snapshot replaces it, a delta is folded in. A delta with no
 * state to fold into cannot happen on one connection (each starts with a snapshot): it returns
 * undefined so the caller waits for the next snapshot rather than show a partial table.
 */
export function applyStreamMessage(
  state: MarketSnapshot | undefined,
  message: MarketStreamMessage,
): MarketSnapshot | undefined {
  if (message.kind === "snapshot")
    return { prices: message.prices, calculations: message.calculations };
  if (!state) return undefined;
  const prices = { ...state.prices };
  for (const [section, changes] of Object.entries(message.prices)) {
    const key = section as keyof typeof prices;
    (prices as Entries)[key] =
      key === "timestamp" ? changes : merge(prices[key] as object, changes as object);
  }
  return { prices, calculations: merge(state.calculations, message.calculations) };
}
