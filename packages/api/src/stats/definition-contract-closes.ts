import {
  evaluateSide,
  forEachAlignedMinute,
  type LegBook,
  type MinuteClose,
} from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";
import type { SpreadRegistry } from "../spreads/registry.ts";
import { legCloses, legContract, legEnd } from "./contract-closes.ts";
import type { StoredCloses } from "./spread-stats-service.ts";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export interface DefinitionContractClosesOptions {
  store: Store;
  spreads: Pick<SpreadRegistry, "executable">;
  /** The contract a key quotes now (the hub's), if any quote named one. */
  contractNow: (key: string) => string | undefined;
  /** Writes what the recorder closed and has not stored yet. */
  flush: () => Promise<void>;
  /** A definition none of whose legs has a contract's past: its legs' per-key history. */
  fallback: StoredCloses;
}

/** An own spread's closes, and which contract each leg's past was read from. */
export interface DefinitionContractCloses {
  closes: StoredCloses;
  /**
   * `symbol`'s legs' contracts (instrument key → contract, as the built-ins' coverage says them)
   * of its last read; undefined where that read was the legs' per-key history.
   */
  contractsOf: (symbol: string) => Record<string, string> | undefined;
}

/**
 * A user definition's 1-minute closes from the past of the contracts its legs quote now
 * (docs/history.md, "Statistics of the contracts held"), as the built-in spreads' are: each leg
 * with a contract its own contract series (contract_candles, under its key or, right after a
 * roll, its @next key), a leg without one (spot, an index) its mid series, aligned minute by
 * minute by core's forEachAlignedMinute (a leg's close carried at most 5 minutes) and valued with the
 * definition's formula at the legs' mids. So after GOLD rolls to February the window is February's
 * own past, not December's glued to it, and the roll moves no z. A definition none of whose legs
 * names a contract (a feed that names none) keeps `fallback`. Empty for a symbol that is not a
 * user definition's.
 */
export function definitionContractCloses(
  options: DefinitionContractClosesOptions,
): DefinitionContractCloses {
  const { store, spreads } = options;
  const used = new Map<string, Record<string, string>>();
  const fallback = (symbol: string, days: number) => {
    used.delete(symbol);
    return options.fallback(symbol, days);
  };
  const closes = async (symbol: string, days: number): Promise<readonly MinuteClose[]> => {
    const found = spreads.executable(symbol);
    const checked = found?.spread.checked;
    if (!found || found.spread.builtin || !checked) return [];
    await options.flush();
    const keys = checked.legs.map((leg) => leg.instrument);
    const contracts = await Promise.all(
      keys.map((key) => legContract(store, options.contractNow, key)),
    );
    if (contracts.every((c) => c === undefined)) return fallback(symbol, days);
    const ends = await Promise.all(keys.map((key, i) => legEnd(store, key, contracts[i])));
    if (ends.some((end) => end === undefined)) return fallback(symbol, days);
    used.set(
      symbol,
      Object.fromEntries(
        keys.flatMap((key, i) => (contracts[i] === undefined ? [] : [[key, contracts[i]]])),
      ),
    );
    const to = Math.max(...(ends as number[])) + MINUTE_MS;
    const from = to - days * DAY_MS;
    const series = await Promise.all(
      keys.map((key, i) => legCloses(store, key, contracts[i], from, to)),
    );
    const books: LegBook[] = keys.map(() => ({}));
    const out: MinuteClose[] = [];
    forEachAlignedMinute(series, (timestamp, closes) => {
      books.forEach((book, i) => {
        book.bid = closes[i];
        book.ask = closes[i];
      });
      const close = evaluateSide(checked.compiled, books, "MID")?.value;
      if (close !== undefined && Number.isFinite(close)) out.push({ timestamp, close });
    });
    return out;
  };
  return { closes, contractsOf: (symbol) => used.get(symbol) };
}
