import type { RouterOutputs } from "@spreadwatch/api";
import { priceField } from "@spreadwatch/core";

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
 * `keptKeys`: instruments the stream was asked to leave out (`exceptKeys`); a snapshot keeps
 * their entries from `state` as they were, so their rows stay where they are, last values shown.
 */
export function applyStreamMessage(
  state: MarketSnapshot | undefined,
  message: MarketStreamMessage,
  keptKeys: readonly string[] = [],
): MarketSnapshot | undefined {
  if (message.kind === "snapshot") {
    const snapshot = { prices: message.prices, calculations: message.calculations };
    return state && keptKeys.length > 0 ? keepEntries(snapshot, state, keptKeys) : snapshot;
  }
  if (!state) return undefined;
  const prices = { ...state.prices };
  for (const [section, changes] of Object.entries(message.prices)) {
    const key = section as keyof typeof prices;
    (prices as Entries)[key] =
      key === "timestamp" ? changes : merge(prices[key] as object, changes as object);
  }
  return { prices, calculations: merge(state.calculations, message.calculations) };
}

/** `next` with `keys`' price and contract entries as `previous` had them. */
function keepEntries(
  next: MarketSnapshot,
  previous: MarketSnapshot,
  keys: readonly string[],
): MarketSnapshot {
  const prices = { ...next.prices } as Record<string, unknown>;
  const fields = new Set(keys.map(priceField));
  for (const [section, entries] of Object.entries(previous.prices)) {
    if (section === "timestamp" || entries === null || typeof entries !== "object") continue;
    const names = section === "contracts" ? new Set(keys) : fields;
    const sent = (prices[section] as Entries | undefined) ?? {};
    let kept: Entries | undefined;
    for (const [name, entry] of Object.entries(entries as Entries)) {
      if (!names.has(name) || name in sent) continue;
      kept ??= { ...sent };
      kept[name] = entry;
    }
    if (kept) prices[section] = kept;
  }
  return { prices: prices as MarketSnapshot["prices"], calculations: next.calculations };
}
