import { INSTRUMENT_IDS, isMcxLotKey, type LotChoice, mcxLot } from "@spreadwatch/core";
import { useSyncExternalStore } from "react";

/**
 * The lot a trader prices each instrument in (GOLDM instead of GOLD, …), kept per browser:
 * it is a way of reading the table, not an account setting, and the server's
 * /api/calculations always answers for the standard lots.
 */
const STORAGE_KEY = "spreadwatch.lots";
const listeners = new Set<() => void>();
let cached: { raw: string | null; choice: LotChoice } = { raw: null, choice: {} };

function read(): LotChoice {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage blocked (private mode): standard lots.
  }
  if (raw === cached.raw) return cached.choice;
  cached = { raw, choice: parse(raw) };
  return cached.choice;
}

/** Only known lots of the right instrument survive a hand-edited or outdated entry. */
function parse(raw: string | null): LotChoice {
  try {
    const saved: unknown = JSON.parse(raw ?? "{}");
    if (typeof saved !== "object" || saved === null) return {};
    const choice: LotChoice = {};
    for (const id of INSTRUMENT_IDS) {
      const key = (saved as Record<string, unknown>)[id];
      if (typeof key === "string" && isMcxLotKey(key) && mcxLot(key).instrument === id)
        choice[id] = key;
    }
    return choice;
  } catch {
    return {};
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's choice applies here too.
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

export function useLotChoice(): [LotChoice, (choice: LotChoice) => void] {
  const choice = useSyncExternalStore(subscribe, read);
  const save = (next: LotChoice) => {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    } catch {
      // Not saved; the choice still applies until the page reloads.
      cached = { raw: JSON.stringify(next), choice: next };
    }
    for (const listener of listeners) listener();
  };
  return [choice, save];
}
