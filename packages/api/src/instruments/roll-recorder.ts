import type { Store } from "@spreadwatch/db";
import { log, warnEvery } from "../log.ts";
import type { HubUpdate } from "../market/hub.ts";

/**
 * Records rolls on the leader (docs/user-guide.md "Instruments"): when the contract a key's quotes
 * name changes, the store compares it with the last one stored for the key and writes the roll.
 * Only a contract that differs from the last one seen here goes to the store, so a quote is not a
 * database write; the first quote of each key after a start is, so a roll that happened while
 * no leader ran is recorded when quotes resume.
 */
export class RollRecorder {
  private readonly seen = new Map<string, string>();
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    /**
     * Told at once, before the quote's later listeners, that a key quotes another contract than
     * the last one seen here (the statistics move to the new contract's past).
     */
    private readonly onContractChanged?: (key: string) => void,
  ) {}

  /** Every accepted quote, while this instance leads. */
  onUpdate({ quote }: HubUpdate): void {
    const { key, contract, expiry, ts } = quote;
    if (!contract || this.seen.get(key) === contract) return;
    const before = this.seen.get(key);
    this.seen.set(key, contract);
    if (before !== undefined) this.onContractChanged?.(key);
    // One after another: a key's contracts reach the store in the order they were quoted.
    this.writes = this.writes.then(async () => {
      try {
        const roll = await this.store.contracts.observe(key, contract, expiry, ts);
        if (roll) log.info(roll, "contract roll");
      } catch (error) {
        // Seen again on its next quote, so the roll is not lost to a busy database.
        if (this.seen.get(key) === contract) this.seen.delete(key);
        warnEvery("roll-recorder", 60_000, { err: error }, "could not record a contract");
      }
    });
  }

  /** A new leadership term starts from the store, not from what a past term saw. */
  reset(): void {
    this.seen.clear();
  }

  /** Resolves once every contract handed in so far is stored (tests, shutdown). */
  idle(): Promise<void> {
    return this.writes;
  }
}
