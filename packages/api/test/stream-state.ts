// Client-side view of `market.onSnapshot` for tests: folds snapshot and delta messages into the
// state a browser would hold, so a test can compare it with /api/prices + /api/calculations.

import type { MarketSnapshot } from "../src/market/hub.ts";
import type { MarketStreamMessage } from "../src/stream/delta.ts";

type Entries = Record<string, unknown>;

/** Sets each key of `changes` on a copy of `base`; a `null` entry removes it (a timestamp is set). */
function merge(base: Entries, changes: Entries): Entries {
  const next = { ...base };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null && key !== "timestamp") delete next[key];
    else next[key] = value;
  }
  return next;
}

export function applyMessage(
  state: MarketSnapshot | undefined,
  message: MarketStreamMessage,
): MarketSnapshot {
  if (message.kind === "snapshot") {
    const { kind: _kind, ...snapshot } = message;
    return snapshot;
  }
  if (!state) throw new Error("a delta arrived before any snapshot");
  const prices = { ...state.prices } as unknown as Record<string, Entries | number | null>;
  for (const [section, changes] of Object.entries(message.prices)) {
    prices[section] =
      section === "timestamp"
        ? (changes as number | null)
        : merge(prices[section] as Entries, changes as Entries);
  }
  const calculations = merge(state.calculations as Entries, message.calculations as Entries);
  return { prices, calculations } as unknown as MarketSnapshot;
}

/** The `data:` payloads of complete SSE events in `text` (named events such as pings skipped). */
export function dataEvents(text: string): string[] {
  const out: string[] = [];
  for (const event of text.split("\n\n").slice(0, -1)) {
    if (event.startsWith("data: ")) out.push(event.slice(6));
  }
  return out;
}
