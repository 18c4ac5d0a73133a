import {
  applyQuote,
  bookIn,
  type CalculationEntry,
  type CostRates,
  type Duties,
  defaultCostRates,
  emptyPrices,
  isKnownQuoteKey,
  type Prices,
  type Quote,
  type QuoteSource,
  removePrice,
  type SpecOf,
  shippedInstrument,
  withPerLot,
} from "@spreadwatch/core";
import { warnEvery } from "../log.ts";
import { builtInDefinitions, MID_ONLY_SYMBOLS } from "../spreads/built-ins.ts";
import { type RegisteredSpread, type SpreadChange, SpreadRegistry } from "../spreads/registry.ts";
import { withDefinitionPerLot } from "./definition-per-lot-entry.ts";
import {
  type DefinitionEntry,
  type ExecutableSymbol,
  type HubCalculations,
  LiveDefinition,
  type LiveEntry,
} from "./live-definition.ts";

export type {
  DefinitionEntry,
  DefinitionLegValue,
  DefinitionSymbol,
  ExecutableSymbol,
  HubCalculations,
} from "./live-definition.ts";

/** What every client may see: the prices, and the built-in and shared spreads' entries. */
export interface MarketSnapshot {
  prices: Prices;
  calculations: HubCalculations;
}

/** One owner's private entries at one version; never changed once published. */
export type OwnedEntries = Readonly<Record<string, DefinitionEntry>>;

/** The hub's state at one version: what everybody sees, and what only each owner does. */
export interface HubState {
  snapshot: MarketSnapshot;
  /** Every user with a private definition (entries or not yet): that user's entries. */
  owned: ReadonlyMap<number, OwnedEntries>;
  /**
   * Symbols of everybody's entries published anew in this version, for the stream's diff: a
   * definition's value held back by `definitionEveryMs` is published in a version whose quotes
   * did not touch it.
   */
  released: readonly ExecutableSymbol[];
}

/**
 * How often a user's definition's published entries may change (docs/user-guide.md "Spreads of your
 * own"): its value moves with almost every quote of any leg, and twenty of them sent at every
 * change would triple the stream (BENCHMARKS.md, "Spread definitions").
 */
export const DEFINITION_EVERY_MS = 1_000;

export interface MarketHubOptions {
  /**
   * A definition's published entries (snapshots, /api/calculations, the stream) change at most
   * this often; listeners read every value as it is. The built-ins' always follow their quotes.
   * 0 (the default): every version.
   */
  definitionEveryMs?: number;
  /** The clock of `definitionEveryMs` (ms, monotonic). */
  now?: () => number;
  /** Catalogue entries, for a definition's per-lot figures; by default the shipped ones. */
  specOf?: SpecOf;
}

/** What one accepted quote changed: the quote itself and the spread symbols recomputed for it. */
export interface HubUpdate {
  quote: Quote;
  /** Every executable symbol recomputed for the quote, users' private ones included. */
  symbols: readonly ExecutableSymbol[];
  /**
   * The hub's live state, valid during the call only: read, never keep or change (a later quote
   * writes its numbers into the same entry objects; `snapshot()` is what may be kept). It holds every
   * definition's entries, private ones included (for the server's own listeners, never a
   * client), and the built-ins' lack `perLot`; `snapshot()` is what carries it.
   */
  calculations: Readonly<HubCalculations>;
  prices: Readonly<Prices>;
}

export type HubListener = (update: HubUpdate) => void;

/** The definitions an instrument's quote moves, and their symbols (made once per registry change). */
interface KeyIndex {
  definitions: LiveDefinition[];
  symbols: ExecutableSymbol[];
}

const NOTHING: readonly ExecutableSymbol[] = [];

/** The entries of calculations by any symbol (its `timestamp` is not asked for). */
function entriesOf(calculations: HubCalculations): Record<string, LiveEntry | undefined> {
  return calculations as unknown as Record<string, LiveEntry | undefined>;
}
const NO_ENTRIES: OwnedEntries = Object.freeze({});

/**
 * The only holder of prices: the latest quote per instrument and every spread definition's value
 * (docs/formulas.md). The built-in spreads are definitions of the registry like a user's. A quote
 * makes stale only the definitions with a leg on its instrument; each is evaluated once when its
 * value is next read (a listener, a snapshot), not at every quote: what any reader sees is the
 * value at the latest quote all the same, and 1,000 definitions cost a quote a few flags
 * (BENCHMARKS.md, "Spread definitions"). Listeners hear of every accepted quote.
 */
export class MarketHub {
  private readonly prices: Prices = emptyPrices();
  /**
   * Live entries by symbol, every definition's (the built-ins' with no perLot): each symbol is a
   * getter that evaluates its definition if a quote made it stale, so a reader pays for what it
   * reads. A symbol with no value reads undefined. What these getters give is read at once and
   * never held (listeners, HubUpdate): a later quote's numbers are written into an entry nobody
   * keeps (LiveDefinition.peek); snapshots and `entry()` take entries that never change.
   */
  private readonly calculations: HubCalculations = { timestamp: null };
  /**
   * The entries snapshots share, built-in and shared ones (the built-ins with their standard-lot
   * perLot): rebuilt in `state()` only for the definitions a quote touched since the last one,
   * so a burst of quotes (or the symbols a USDINR tick moves) costs one evaluation and at most
   * one wrapper per symbol per version, not one per quote.
   */
  private readonly published: HubCalculations = { timestamp: null };
  /** The live entry each published one is (the built-ins' are wrapped with their perLot). */
  private readonly publishedFrom = new Map<ExecutableSymbol, LiveEntry>();
  /** Each private definition's owner's published entries, replaced (never changed) on change. */
  private owned = new Map<number, OwnedEntries>();
  private ownersChanged = false;
  /** Where each symbol's entry is published: null for everybody, else its owner's entries. */
  private readonly placed = new Map<ExecutableSymbol, number | null>();
  /** Definitions a quote touched since the last snapshot, or held back since. */
  private queued: LiveDefinition[] = [];
  /** When the held-back definitions are due (see `definitionEveryMs`). */
  private heldUntil: number | undefined;
  /** When the definitions' entries were last published (all at once, so one frame carries them). */
  private definitionsPublishedAt = Number.NEGATIVE_INFINITY;
  private readonly definitionEveryMs: number;
  private readonly now: () => number;
  /** Symbols of definitions the registry removed or replaced since the last snapshot. */
  private readonly unpublished = new Set<ExecutableSymbol>();
  private readonly listeners = new Set<HubListener>();
  private readonly definitions = new Map<string, LiveDefinition>();
  private readonly bySymbol = new Map<ExecutableSymbol, LiveDefinition>();
  private byKey = new Map<string, KeyIndex>();
  private readonly owners = new Set<number>();
  /**
   * Every leg instrument's book as numbers (bid, ask; NaN where none), refreshed when a quote
   * or `forget` changes it: a definition reads its legs here (LiveDefinition.recomputeFrom), not
   * through the price maps' objects.
   */
  private books = new Float64Array(64);
  /** Where in `books` each instrument's is (slot i at 2i), kept while the hub lives. */
  private readonly slotOf = new Map<string, number>();
  /**
   * Every definition's numbers (values, leg prices, book slots) side by side, so the hundreds a
   * USDINR quote touches are read from one stretch of memory (LiveDefinition.moveTo). A removed
   * definition's room is taken back when the array is next laid out anew.
   */
  private numbers = new Float64Array(4096);
  private numbersUsed = 0;
  private version = 0;
  private cached: { version: number; state: HubState } | undefined;
  private cachedFor = new Map<number, MarketSnapshot>();
  private readonly specOf: SpecOf;
  /** Definitions evaluated so far (each is BUY and SELL), for tests and benches. */
  evaluations = 0;

  constructor(
    private readonly duties: Duties,
    /** Read by market.costRates, so a browser's own lot choice is costed at the same rates. */
    readonly costRates: CostRates = defaultCostRates(),
    /**
     * Whether a quote's key is an instrument in use under its source's group (the catalogue
     * answers on a server); by default the fifteen built-in keys.
     */
    private readonly inUse: (source: QuoteSource, key: string) => boolean = isKnownQuoteKey,
    /**
     * Every definition to evaluate; by default the built-ins alone. Its changes reach the hub
     * through `spreadsChanged` (composition.ts wires it).
     */
    readonly spreads: SpreadRegistry = new SpreadRegistry({ builtIns: builtInDefinitions(duties) }),
    options: MarketHubOptions = {},
  ) {
    this.definitionEveryMs = options.definitionEveryMs ?? 0;
    this.now = options.now ?? (() => performance.now());
    this.specOf = options.specOf ?? shippedInstrument;
    for (const spread of spreads.all()) this.place(spread);
    this.index();
  }

  /** Applies a quote; returns false (and tells nobody) when the quote carries nothing usable. */
  ingest(quote: Quote): boolean {
    if (!this.inUse(quote.source, quote.key) || !applyQuote(this.prices, quote)) return false;
    const symbols = this.recalculate(quote.key);
    const update: HubUpdate = {
      quote,
      symbols,
      calculations: this.calculations,
      prices: this.prices,
    };
    for (const listener of this.listeners) {
      try {
        listener(update);
      } catch (error) {
        // One faulty subscriber must not stop prices reaching the others, nor flood the log at
        // every quote.
        warnEvery("market-hub-listener", 60_000, { err: error }, "market hub listener failed");
      }
    }
    return true;
  }

  /**
   * Forgets an instrument taken out of use: its price and contract go from every snapshot from
   * now on. Tells no listener (no quote came); the caller tells the stream. True if it had a price.
   */
  forget(source: QuoteSource, key: string): boolean {
    if (!removePrice(this.prices, source, key)) return false;
    this.recalculate(key);
    return true;
  }

  /**
   * The registry added, changed or removed definitions: their entries are recomputed (or go),
   * and the quote index follows. Returns the symbols whose entries may have changed, for the
   * stream (composition.ts).
   */
  spreadsChanged(change: SpreadChange): readonly ExecutableSymbol[] {
    const symbols: ExecutableSymbol[] = [];
    for (const spread of [...change.removed, ...change.changed, ...change.added]) {
      const before = this.definitions.get(spread.symbol);
      if (!before) continue;
      this.definitions.delete(spread.symbol);
      for (const symbol of [before.buySymbol, before.sellSymbol]) {
        this.bySymbol.delete(symbol);
        delete this.calculations[symbol];
        this.unpublished.add(symbol);
        symbols.push(symbol);
      }
    }
    for (const spread of [...change.changed, ...change.added]) {
      const live = this.place(spread);
      if (!live) continue;
      for (const symbol of [live.buySymbol, live.sellSymbol])
        if (!symbols.includes(symbol)) symbols.push(symbol);
    }
    this.index();
    this.version++;
    return symbols;
  }

  /**
   * Builds the evaluator of a definition the hub computes (none for the mid-only built-ins),
   * stale until first read, with its two symbols' getters.
   */
  private place(spread: RegisteredSpread): LiveDefinition | undefined {
    if (!spread.checked || MID_ONLY_SYMBOLS.has(spread.symbol)) return undefined;
    const live = new LiveDefinition(spread, spread.checked, this.duties);
    live.setSlots(live.keys.map((key) => this.slotFor(key)));
    this.definitions.set(spread.symbol, live);
    this.allot(live);
    this.bySymbol.set(live.buySymbol, live);
    this.bySymbol.set(live.sellSymbol, live);
    const calculations = this.calculations;
    Object.defineProperty(calculations, live.buySymbol, {
      get: () => this.current(live).peek(true),
      enumerable: true,
      configurable: true,
    });
    Object.defineProperty(calculations, live.sellSymbol, {
      get: () => this.current(live).peek(false),
      enumerable: true,
      configurable: true,
    });
    this.queue(live);
    return live;
  }

  /** Room in `numbers` for a definition just placed; full, every definition is laid out anew. */
  private allot(live: LiveDefinition): void {
    if (this.numbersUsed + live.size <= this.numbers.length) {
      live.moveTo(this.numbers, this.numbersUsed);
      this.numbersUsed += live.size;
      return;
    }
    let needed = 0;
    for (const each of this.definitions.values()) needed += each.size;
    const numbers = new Float64Array(Math.max(4096, 2 * needed));
    let used = 0;
    for (const each of this.definitions.values()) {
      each.moveTo(numbers, used);
      used += each.size;
    }
    this.numbers = numbers;
    this.numbersUsed = used;
  }

  /** An instrument's place in `books`, given (and filled from its price now) on first use. */
  private slotFor(key: string): number {
    let slot = this.slotOf.get(key);
    if (slot !== undefined) return slot;
    slot = this.slotOf.size;
    this.slotOf.set(key, slot);
    if (this.books.length < 2 * (slot + 1)) {
      const grown = new Float64Array(2 * this.books.length);
      grown.set(this.books);
      this.books = grown;
    }
    this.refreshBook(key, slot);
    return slot;
  }

  /** Copies an instrument's book into `books` (NaN for a side, or a book, it lacks). */
  private refreshBook(key: string, slot: number): void {
    const book = bookIn(this.prices, key);
    this.books[2 * slot] = book?.bid ?? Number.NaN;
    this.books[2 * slot + 1] = book?.ask ?? Number.NaN;
  }

  /** The definition with its value at the latest quote: evaluated now if a quote made it stale. */
  private current(live: LiveDefinition): LiveDefinition {
    if (live.stale) {
      live.stale = false;
      this.evaluations++;
      live.recomputeFrom(this.books);
    }
    return live;
  }

  /** Makes a definition stale and due for the next snapshot. */
  private queue(live: LiveDefinition): void {
    live.stale = true;
    if (live.queued) return;
    live.queued = true;
    this.queued.push(live);
  }

  /** The quote index (key → definitions with a leg on it) and the owners of private ones. */
  private index(): void {
    const byKey = new Map<string, KeyIndex>();
    const owners = new Set<number>();
    for (const live of this.definitions.values()) {
      if (live.ownerId !== null) owners.add(live.ownerId);
      for (const key of new Set(live.keys)) {
        let entry = byKey.get(key);
        if (!entry) {
          entry = { definitions: [], symbols: [] };
          byKey.set(key, entry);
        }
        entry.definitions.push(live);
        entry.symbols.push(live.buySymbol, live.sellSymbol);
      }
    }
    this.byKey = byKey;
    if (owners.size !== this.owners.size || [...owners].some((o) => !this.owners.has(o))) {
      this.owners.clear();
      for (const owner of owners) this.owners.add(owner);
      this.ownersChanged = true;
    }
  }

  /** Makes the definitions a key feeds stale and the state a new version. */
  private recalculate(key: string): readonly ExecutableSymbol[] {
    const slot = this.slotOf.get(key);
    if (slot !== undefined) this.refreshBook(key, slot);
    const touched = this.byKey.get(key);
    if (touched) for (const live of touched.definitions) this.queue(live);
    this.calculations.timestamp = this.prices.timestamp;
    this.version++;
    return touched?.symbols ?? NOTHING;
  }

  subscribe(listener: HubListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /**
   * When a held-back definition's entries are due to be published (performance.now() ms), if
   * any are: the stream asks for a snapshot then, though no quote came (snapshot-broadcaster.ts).
   */
  get heldBackUntil(): number | undefined {
    return this.heldUntil;
  }

  /** Whether any user has a private definition (else every viewer sees the same snapshot). */
  get hasPrivate(): boolean {
    return this.owners.size > 0;
  }

  /** A symbol's live entry, whoever may see it (the alert engine's start); the caller may keep it. */
  entry(symbol: string): LiveEntry | undefined {
    const live = this.bySymbol.get(symbol as ExecutableSymbol);
    if (live === undefined) return undefined;
    this.current(live);
    return symbol === live.buySymbol ? live.buy : live.sell;
  }

  /**
   * What every client may see, as an immutable copy shared by every reader until the next
   * change: prices, and the built-in and shared spreads. A private definition's entries are in
   * `snapshotFor(its owner)` only.
   */
  snapshot(): MarketSnapshot {
    return this.state().snapshot;
  }

  /** The snapshot a user sees: everybody's, and that user's private entries. */
  snapshotFor(viewerId: number | undefined): MarketSnapshot {
    const state = this.state();
    const own = viewerId === undefined ? undefined : state.owned.get(viewerId);
    if (own === undefined || own === NO_ENTRIES) return state.snapshot;
    let snapshot = this.cachedFor.get(viewerId as number);
    if (snapshot === undefined) {
      snapshot = {
        prices: state.snapshot.prices,
        calculations: { ...state.snapshot.calculations, ...own },
      };
      this.cachedFor.set(viewerId as number, snapshot);
    }
    return snapshot;
  }

  /**
   * The current version's state. Entries are replaced (never mutated) on update, so copying the
   * maps one level deep suffices; an owner's entries are copied only when one of them changed.
   */
  state(): HubState {
    const now = this.now();
    if (this.cached?.version === this.version) {
      if (this.heldUntil === undefined || now < this.heldUntil) return this.cached.state;
      // Held-back entries are due: a new version, though no quote came.
      this.version++;
    }
    const released = this.publish(now);
    const p = this.prices;
    const state: HubState = {
      snapshot: {
        prices: {
          cme: { ...p.cme },
          mcx: { ...p.mcx },
          spot: { ...p.spot },
          zerodha: { ...p.zerodha },
          fx: { ...p.fx },
          ...(p.contracts && { contracts: { ...p.contracts } }),
          timestamp: p.timestamp,
        },
        calculations: { ...this.published },
      },
      owned: this.owned,
      released,
    };
    this.cached = { version: this.version, state };
    this.cachedFor = new Map();
    return state;
  }

  /**
   * A definition's entry as published: with its per-lot figures, worked out when first read,
   * when its legs have lots (definition-per-lot-entry.ts); USDINR is taken now, as the entry's
   * legs were.
   */
  private withLots(live: LiveDefinition, entry: DefinitionEntry): DefinitionEntry {
    const legs = this.spreads.bySymbolName(live.symbol)?.legs;
    if (!legs) return entry;
    const fx = bookIn(this.prices, "USDINR");
    const usdinr =
      fx?.bid !== undefined && fx.ask !== undefined
        ? (fx.bid + fx.ask) / 2
        : (fx?.bid ?? fx?.ask ?? Number.NaN);
    return withDefinitionPerLot(entry, {
      legs,
      usdinr,
      rates: this.costRates,
      specOf: this.specOf,
    });
  }

  /**
   * Publishes each entry that may have changed since the last snapshot where its viewers read
   * it: a built-in's with its perLot and a shared one's for everybody, a private one's in its
   * owner's entries. An entry that is the one published already is left as it is; a
   * definition's published less than `definitionEveryMs` ago waits (its latest value goes when
   * due). Returns the symbols of everybody's entries that changed.
   */
  private publish(now: number): ExecutableSymbol[] {
    const released: ExecutableSymbol[] = [];
    const published = entriesOf(this.published);
    const copies = new Map<number, Record<string, DefinitionEntry>>();
    const ownedBy = (owner: number) => {
      let entries = copies.get(owner);
      if (entries === undefined) {
        entries = { ...this.owned.get(owner) };
        copies.set(owner, entries);
      }
      return entries;
    };
    const remove = (symbol: ExecutableSymbol, where: number | null) => {
      if (where === null) delete published[symbol];
      else delete ownedBy(where)[symbol];
      this.placed.delete(symbol);
      this.publishedFrom.delete(symbol);
    };
    /** Publishes one symbol's entry; true if what its viewers see changed. */
    const put = (symbol: ExecutableSymbol, live: LiveDefinition | undefined): boolean => {
      const target = live?.ownerId;
      const before = this.placed.get(symbol);
      let changed = false;
      if (before !== undefined && before !== target) {
        remove(symbol, before);
        changed = true;
      }
      if (target === undefined) return changed;
      const entry = symbol === live?.buySymbol ? live.buy : live?.sell;
      if (entry === undefined) {
        if (!this.placed.has(symbol)) return changed;
        remove(symbol, target);
        return true;
      }
      if (this.publishedFrom.get(symbol) === entry) return changed;
      this.publishedFrom.set(symbol, entry);
      this.placed.set(symbol, target);
      const owner = live as LiveDefinition;
      if (target !== null) ownedBy(target)[symbol] = this.withLots(owner, entry as DefinitionEntry);
      else
        published[symbol] =
          "legs" in entry ? this.withLots(owner, entry) : withPerLot(entry, this.costRates);
      return true;
    };
    const queued = this.queued;
    this.queued = [];
    this.heldUntil = undefined;
    const due = this.definitionsPublishedAt + this.definitionEveryMs;
    const release = now >= due;
    if (release) this.definitionsPublishedAt = now;
    for (const live of queued) {
      live.queued = false;
      // A definition the registry replaced since it was queued is published by its successor.
      if (this.definitions.get(live.symbol) !== live) continue;
      this.unpublished.delete(live.buySymbol);
      this.unpublished.delete(live.sellSymbol);
      // A new definition shows at once; a known one's changes wait for the next release.
      if (!live.builtin && !release && live.published) {
        live.queued = true;
        this.queued.push(live);
        this.heldUntil = due;
        continue;
      }
      live.published = true;
      this.current(live);
      const buy = put(live.buySymbol, live);
      const sell = put(live.sellSymbol, live);
      if ((buy || sell) && live.ownerId === null) released.push(live.buySymbol, live.sellSymbol);
    }
    for (const symbol of this.unpublished) put(symbol, this.bySymbol.get(symbol));
    this.unpublished.clear();
    this.published.timestamp = this.calculations.timestamp;
    if (copies.size === 0 && !this.ownersChanged) return released;
    this.ownersChanged = false;
    const owned = new Map<number, OwnedEntries>();
    for (const owner of this.owners) {
      const entries = copies.get(owner) ?? this.owned.get(owner) ?? NO_ENTRIES;
      owned.set(owner, Object.keys(entries).length === 0 ? NO_ENTRIES : entries);
    }
    this.owned = owned;
    return released;
  }
}

export type { CalculationEntry, LiveEntry };
