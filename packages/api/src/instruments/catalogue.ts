import {
  BUILT_IN_INSTRUMENTS,
  BUILT_IN_KEYS,
  groupOfExchange,
  type InstrumentSpec,
  MAX_INSTRUMENTS,
  type QuoteSource,
  SHIPPED_INSTRUMENTS,
} from "@spreadwatch/core";
import type { InstrumentAdded, Store, StoredInstrument } from "@spreadwatch/db";
import { log } from "../log.ts";

/** What a reload changed: instruments newly in use, and those no longer in use. */
export interface CatalogueChange {
  added: readonly InstrumentSpec[];
  removed: readonly InstrumentSpec[];
}

export type CatalogueListener = (change: CatalogueChange) => void;

const BUILT_IN = new Set<string>(BUILT_IN_KEYS);

/** The spec without the row's bookkeeping. */
function specOf({ createdAt: _at, createdBy: _by, ...spec }: StoredInstrument): InstrumentSpec {
  return spec;
}

const sameSpec = (a: InstrumentSpec, b: InstrumentSpec) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The instruments in use on this instance (docs/user-guide.md "Instruments"): the fifteen built-in
 * keys, always, and those admins added (the store's `instruments`). Only these are quoted, streamed
 * and listed. The store is the truth; every instance reloads when `instruments.changed` comes
 * over the bus (composition.ts), so a change on one instance reaches all.
 */
export class InstrumentCatalogue {
  private specs = new Map<string, InstrumentSpec>(BUILT_IN_INSTRUMENTS.map((s) => [s.key, s]));
  /** Each key's price group (mcx, cme, …): what the hub's every quote is checked against. */
  private groups = new Map<string, QuoteSource>(
    BUILT_IN_INSTRUMENTS.map((s) => [s.key, groupOfExchange(s.exchange)]),
  );
  private readonly listeners = new Set<CatalogueListener>();
  private loading: Promise<void> = Promise.resolve();

  constructor(private readonly store: Store) {}

  /**
   * Reads the stored instruments and tells the listeners what changed. Reloads run one after
   * another, so an older read never replaces a newer one.
   */
  reload(): Promise<void> {
    const next = this.loading.then(() => this.load());
    this.loading = next.catch(() => {});
    return next;
  }

  private async load(): Promise<void> {
    const stored = await this.store.instruments.list();
    const next = new Map<string, InstrumentSpec>(BUILT_IN_INSTRUMENTS.map((s) => [s.key, s]));
    for (const row of stored) if (!next.has(row.key)) next.set(row.key, specOf(row));
    const added: InstrumentSpec[] = [];
    const removed: InstrumentSpec[] = [];
    for (const [key, spec] of next) {
      const before = this.specs.get(key);
      if (before && sameSpec(before, spec)) continue;
      if (before) removed.push(before);
      added.push(spec);
    }
    for (const [key, spec] of this.specs) if (!next.has(key)) removed.push(spec);
    this.specs = next;
    this.groups = new Map([...next].map(([key, spec]) => [key, groupOfExchange(spec.exchange)]));
    if (added.length === 0 && removed.length === 0) return;
    for (const listener of this.listeners) {
      try {
        listener({ added, removed });
      } catch (error) {
        // One failing listener (a feed refusing the new set) must not keep the others stale.
        log.error({ err: error }, "an instruments listener failed");
      }
    }
  }

  /** Whether a quote of `key` under `source` is of an instrument in use (the hub's question). */
  accepts(source: QuoteSource, key: string): boolean {
    return this.groups.get(key) === source;
  }

  get(key: string): InstrumentSpec | undefined {
    return this.specs.get(key);
  }

  isBuiltIn(key: string): boolean {
    return BUILT_IN.has(key);
  }

  /** The built-in fifteen first, then the added ones, oldest first. */
  inUse(): InstrumentSpec[] {
    return [...this.specs.values()];
  }

  /** Shipped instruments not in use: what an admin can add by key alone. */
  available(): InstrumentSpec[] {
    return SHIPPED_INSTRUMENTS.filter((spec) => !this.specs.has(spec.key));
  }

  get size(): number {
    return this.specs.size;
  }

  /**
   * Puts an instrument in use (atomically in the store: a double submit adds it once), at most
   * MAX_INSTRUMENTS in all, then reloads. The caller announces the change on the bus.
   */
  async add(spec: InstrumentSpec, by: number | null): Promise<InstrumentAdded> {
    if (this.specs.has(spec.key)) return "exists";
    const maxRows = MAX_INSTRUMENTS - BUILT_IN.size;
    const result = await this.store.instruments.add(spec, by, Date.now(), maxRows);
    await this.reload();
    return result;
  }

  /** Takes an added instrument out of use (built-in ones are never stored); reloads. */
  async remove(key: string): Promise<boolean> {
    const removed = await this.store.instruments.remove(key);
    await this.reload();
    return removed;
  }

  onChange(listener: CatalogueListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
