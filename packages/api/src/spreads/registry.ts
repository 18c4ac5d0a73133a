// Every spread definition this server evaluates (docs/formulas.md): the thirteen built-ins and
// the users' own, checked once and kept compiled. Other parts ask it who may see what and hear
// of changes; nothing else holds a copy of the definitions.
import {
  type CheckedDefinition,
  checkDefinition,
  parseExecutableSymbol,
  type SpreadDefinition,
} from "@spreadwatch/core";
import { log } from "../log.ts";
import { MID_ONLY_SYMBOLS } from "./built-ins.ts";

/** A definition with its compiled formula; null where it cannot be checked (see `load`). */
export interface RegisteredSpread extends SpreadDefinition {
  checked: CheckedDefinition | null;
}

export interface SpreadViewer {
  id: number;
  isAdmin?: boolean;
}

export interface SpreadChange {
  added: RegisteredSpread[];
  removed: RegisteredSpread[];
  changed: RegisteredSpread[];
}

export interface SpreadRegistryOptions {
  builtIns: readonly SpreadDefinition[];
  /** The stored definitions (the store's, once there is a table for them). */
  load?: () => Promise<readonly SpreadDefinition[]>;
  /** Whether a leg's instrument is known; a stored definition whose leg is not still loads. */
  knows?: (instrument: string) => boolean;
}

function register(definition: SpreadDefinition, knows: (key: string) => boolean): RegisteredSpread {
  try {
    return { ...definition, checked: checkDefinition(definition, knows) };
  } catch (error) {
    // A stored definition that no longer checks (a rule tightened since) must not stop the
    // server: it is listed, evaluates to no value, and its owner can fix or delete it.
    log.warn({ err: error, symbol: definition.symbol }, "a spread definition does not check");
    return { ...definition, checked: null };
  }
}

export class SpreadRegistry {
  private bySymbol = new Map<string, RegisteredSpread>();
  private readonly listeners = new Set<(change: SpreadChange) => void>();
  private readonly knows: (key: string) => boolean;
  private loading: Promise<void> = Promise.resolve();

  constructor(private readonly options: SpreadRegistryOptions) {
    this.knows = options.knows ?? (() => true);
    for (const definition of options.builtIns)
      this.bySymbol.set(
        definition.symbol,
        register(definition, () => true),
      );
  }

  /**
   * Reads the stored definitions again and tells listeners what changed. Reloads run one after
   * another (a create's own reload and the bus's may overlap), so an older read never replaces a
   * newer one.
   */
  reload(): Promise<void> {
    const next = this.loading.then(() => this.load());
    this.loading = next.catch(() => {});
    return next;
  }

  private async load(): Promise<void> {
    const stored = (await this.options.load?.()) ?? [];
    const next = new Map<string, RegisteredSpread>();
    for (const definition of this.options.builtIns)
      next.set(
        definition.symbol,
        this.bySymbol.get(definition.symbol) ?? register(definition, () => true),
      );
    for (const definition of stored) {
      const known = this.bySymbol.get(definition.symbol);
      next.set(
        definition.symbol,
        known && known.updatedAt === definition.updatedAt && known.id === definition.id
          ? known
          : register(definition, this.knows),
      );
    }
    const change: SpreadChange = { added: [], removed: [], changed: [] };
    for (const [symbol, spread] of next) {
      const before = this.bySymbol.get(symbol);
      if (!before) change.added.push(spread);
      else if (before !== spread) change.changed.push(spread);
    }
    for (const [symbol, spread] of this.bySymbol)
      if (!next.has(symbol)) change.removed.push(spread);
    this.bySymbol = next;
    if (change.added.length + change.removed.length + change.changed.length === 0) return;
    for (const listener of this.listeners) listener(change);
  }

  all(): readonly RegisteredSpread[] {
    return [...this.bySymbol.values()];
  }

  /** Built-ins, shared definitions and the viewer's own. */
  visibleTo(viewer: SpreadViewer): RegisteredSpread[] {
    return this.all().filter((spread) => this.visible(spread, viewer));
  }

  bySymbolName(symbol: string): RegisteredSpread | undefined {
    return this.bySymbol.get(symbol);
  }

  /** SP7_BUY or GC_SELL → its definition and side; undefined for anything else. */
  executable(symbol: string): { spread: RegisteredSpread; side: "BUY" | "SELL" } | undefined {
    const parsed = parseExecutableSymbol(symbol);
    const spread = parsed && this.bySymbol.get(parsed.symbol);
    // The mid-only built-ins (XAU_SPOT, NIFTY) have no executable sides.
    if (!parsed || !spread || MID_ONLY_SYMBOLS.has(spread.symbol)) return undefined;
    return { spread, side: parsed.side };
  }

  /** Whether the viewer may see a definition or one of its symbols (SP7, SP7_BUY, XAU_SPOT). */
  canSee(viewer: SpreadViewer, symbol: string): boolean {
    const spread = this.bySymbol.get(symbol) ?? this.executable(symbol)?.spread;
    return spread !== undefined && this.visible(spread, viewer);
  }

  subscribe(listener: (change: SpreadChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private visible(spread: RegisteredSpread, viewer: SpreadViewer): boolean {
    return spread.builtin || spread.shared || spread.ownerId === viewer.id;
  }
}
