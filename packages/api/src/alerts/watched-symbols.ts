import {
  ALERT_METRICS,
  type AlertMetric,
  instrument,
  parseSpreadSymbol,
  SPREAD_SYMBOLS,
  type SpreadSymbol,
} from "@spreadwatch/core";
import type { SpreadMark } from "@spreadwatch/db";
import type { HubUpdate } from "../market/hub.ts";
import type { RegisteredSpread, SpreadChange, SpreadRegistry } from "../spreads/registry.ts";
import type { LegWatch } from "./leg-watch.ts";
import { markKey, parseMarkKey } from "./metric-marks.ts";

/** A symbol's (metric, mark key) pairs. */
export type MetricKeys = ReadonlyArray<readonly [AlertMetric, string]>;

const BUILT_IN_SYMBOLS: ReadonlySet<string> = new Set(SPREAD_SYMBOLS);

/** GC_BUY … CL_SELL: always watched, whatever the registry says. */
export function isBuiltIn(symbol: string): boolean {
  return BUILT_IN_SYMBOLS.has(symbol);
}

function metricKeysOf(symbol: string): MetricKeys {
  return ALERT_METRICS.map((m) => [m, markKey(symbol, m)] as const);
}

/** A definition's two executable symbols. */
function executablesOf(spread: RegisteredSpread): [string, string] {
  return [`${spread.symbol}_BUY`, `${spread.symbol}_SELL`];
}

/** What a definition's values depend on: a change of it makes its last values meaningless. */
function formulaOf(spread: RegisteredSpread): string {
  return JSON.stringify([spread.formula, spread.legs.map((leg) => [leg.name, leg.instrument])]);
}

/** A symbol's spread in the hub's calculations (a definition's entry too), if computable. */
export function spreadIn(
  calculations: HubUpdate["calculations"],
  symbol: string,
): number | undefined {
  const entry = (calculations as Readonly<Record<string, { spread?: number } | number | null>>)[
    symbol
  ];
  return typeof entry === "object" && entry !== null ? entry.spread : undefined;
}

/** What a registry change means for the alert engine, by executable symbol. */
export interface SymbolChange {
  /** The definition is gone: its alerts go with it. */
  removed: string[];
  /** Its formula or legs changed: its last values mean nothing on the new formula. */
  reformulated: string[];
  /**
   * Whose alerts to read again: a private definition's alerts can only be its owner's, so a
   * trader's edit costs one user's re-read; a shared one (now or before) can have anyone's.
   */
  reread: { everyone: boolean; users: Set<number> };
}

/**
 * The executable symbols the alert engine watches: the ten built-ins always, and the BUY and
 * SELL of every user definition in the registry (docs/formulas.md) while it exists, for the
 * users who can see it. It keeps the definitions' legs in the engine's LegWatch, so a crossing
 * on a stale leg of a definition is held as a built-in's is.
 */
export class WatchedSymbols {
  /** Each watched symbol's (metric, mark key) pairs, built once: the update loop builds no strings. */
  private readonly metricKeys = new Map<string, MetricKeys>(
    SPREAD_SYMBOLS.map((s) => [s, metricKeysOf(s)]),
  );
  /** Each user definition as last seen: its formula and legs (formulaOf) and whether shared. */
  private readonly known = new Map<string, { formula: string; shared: boolean }>();

  constructor(
    private readonly spreads: SpreadRegistry | undefined,
    private readonly legs: LegWatch,
  ) {}

  /**
   * Learns every definition now in the registry, forgetting what it knew; the registry's changes
   * from then on come through `apply` (the composition root hands them over).
   */
  learnAll(): void {
    this.known.clear();
    for (const spread of this.spreads?.all() ?? []) if (!spread.builtin) this.learn(spread);
  }

  /** The (metric, mark key) pairs of a symbol the hub computed; undefined when not watched. */
  keysOf(symbol: string): MetricKeys | undefined {
    const known = this.metricKeys.get(symbol);
    if (known || !this.definitionOf(symbol)) return known;
    const keys = metricKeysOf(symbol);
    this.metricKeys.set(symbol, keys);
    return keys;
  }

  /** The mark keys of any symbol, watched or gone. */
  markKeysOf(symbol: string): string[] {
    return (this.metricKeys.get(symbol) ?? metricKeysOf(symbol)).map(([, key]) => key);
  }

  /** Whether `userId`'s alert on `symbol` is watched: a built-in, or a definition they can see. */
  watches(symbol: string, userId: number): boolean {
    if (isBuiltIn(symbol)) return true;
    const spreads = this.spreads;
    return spreads?.executable(symbol) !== undefined && spreads.canSee({ id: userId }, symbol);
  }

  /**
   * A stored last value is a start only for a symbol that still means what it meant: a
   * definition's mark from before its last change is not.
   */
  trustsMark(mark: SpreadMark): boolean {
    const parsed = parseMarkKey(mark.symbol);
    if (!parsed) return false;
    if (isBuiltIn(parsed.symbol)) return true;
    const spread = this.definitionOf(parsed.symbol);
    return spread !== undefined && mark.at >= spread.updatedAt;
  }

  /** A definition's symbol as people read it, "Gold/silver Buy" (its name now); built-ins: none. */
  labelOf(symbol: string): string | undefined {
    const spread = this.definitionOf(symbol);
    if (!spread) return undefined;
    return `${spread.name} ${symbol.endsWith("_SELL") ? "Sell" : "Buy"}`;
  }

  /**
   * The name of the spread behind an executable symbol, as the dashboard shows it: a
   * definition's name ("Gold/silver") or a built-in's ("Gold"); undefined for an unknown symbol.
   */
  nameOf(symbol: string): string | undefined {
    if (isBuiltIn(symbol)) {
      const { id } = parseSpreadSymbol(symbol as SpreadSymbol);
      return this.spreads?.executable(symbol)?.spread.name ?? instrument(id).name;
    }
    return this.definitionOf(symbol)?.name;
  }

  /** The user definition behind an executable symbol; undefined for a built-in or unknown one. */
  private definitionOf(symbol: string): RegisteredSpread | undefined {
    if (isBuiltIn(symbol)) return undefined;
    const spread = this.spreads?.executable(symbol)?.spread;
    return spread?.builtin ? undefined : spread;
  }

  /** What a registry change means for the watched symbols; learns the change. */
  apply(change: SpreadChange): SymbolChange {
    const result: SymbolChange = {
      removed: [],
      reformulated: [],
      reread: { everyone: false, users: new Set() },
    };
    for (const spread of change.removed) {
      if (spread.builtin) continue;
      this.known.delete(spread.symbol);
      for (const symbol of executablesOf(spread)) {
        this.metricKeys.delete(symbol);
        this.legs.forgetLegs(symbol);
        result.removed.push(symbol);
      }
    }
    for (const spread of [...change.added, ...change.changed]) {
      if (spread.builtin) continue;
      const before = this.known.get(spread.symbol);
      const now = this.learn(spread);
      if (before !== undefined && before.formula !== now.formula)
        result.reformulated.push(...executablesOf(spread));
      // Alerts made on a symbol before this registry knew it were left out: they join now.
      if (spread.shared || before?.shared) result.reread.everyone = true;
      else if (spread.ownerId !== null) result.reread.users.add(spread.ownerId);
    }
    return result;
  }

  private learn(spread: RegisteredSpread): { formula: string; shared: boolean } {
    const known = { formula: formulaOf(spread), shared: spread.shared };
    this.known.set(spread.symbol, known);
    const instruments = spread.legs.map((leg) => leg.instrument);
    for (const symbol of executablesOf(spread)) this.legs.setLegs(symbol, instruments);
    return known;
  }
}
