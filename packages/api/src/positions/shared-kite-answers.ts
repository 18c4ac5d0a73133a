import type { KeyValueStore } from "@spreadwatch/db";
import { log } from "../log.ts";

/** The clock calls are paced by: real time by default, not the source's clock (tests move that). */
export interface Pace {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** Kite's answer about a key, or why there is none; `at` is when it came. */
export type Outcome<T> = { ok: T; at: number } | { error: string; at: number };

export type AnswerStore = Pick<KeyValueStore, "get" | "set" | "setIfStale" | "deleteSetBefore">;

export interface SharedAnswersOptions {
  /** Names the store keys: kite.<name>.answer.<key> and kite.<name>.claim.<key>. */
  name: string;
  store: AnswerStore;
  /** Kite is asked about a key at most this often, across every instance on the store. */
  ttlMs: number;
  /** An answer older than this is not served. */
  maxStaleMs: number;
  now: () => number;
  /** How long an instance waits for another's answer: no longer than that one's Kite call. */
  waitMs: number;
  /** The real clock the wait is polled on (the source's `now` is one tests move). */
  pace: Pace;
}

interface Entry<T> {
  /** The newest answer this instance knows: its own, or another instance's read from the store. */
  answer?: Outcome<T>;
  /** What asks wait on while this instance looks a key up (undefined: no look-up running). */
  served?: Promise<Outcome<T>>;
}

/** How often a waiting instance reads the store for the answer of the one asking Kite. */
const POLL_MS = 100;

/**
 * At most one Kite call per key per `ttlMs` across the cluster (docs/operations.md "Run several
 * instances"), failures included. The instances share the answers through the store: a fresh one is
 * used as it is; when it is stale, the instance that claims the key (setIfStale, atomic) asks Kite
 * and stores the answer, and the others serve the previous answer meanwhile or, with none, wait for
 * the new one. A claim ages like an answer, so one left by an instance that died expires with its
 * minute. In front, each instance keeps what it learnt, so a page of many positions reads the store
 * only for the keys whose answer has gone stale.
 */
export class SharedAnswers<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: SharedAnswersOptions) {}

  get(key: string, fetch: () => Promise<T>): Promise<Outcome<T>> {
    const now = this.options.now();
    const entry = this.entryOf(key, now);
    const known = this.usable(entry.answer, now);
    if (known && this.fresh(known, now)) return Promise.resolve(known);
    if (!entry.served) {
      let serve: (answer: Outcome<T>) => void = () => {};
      entry.served = new Promise((resolve) => {
        serve = resolve;
      });
      void this.lookUp(key, entry, fetch, serve)
        .catch((error: Error) => ({
          error: `the shared Kite answers could not be read (${error.message})`,
          at: this.options.now(),
        }))
        .then((outcome) => {
          serve(outcome);
          entry.served = undefined;
        });
    }
    return known ? Promise.resolve(known) : entry.served;
  }

  /** Resolves when the look-up is over; `serve` may hand the asks an answer before that. */
  private async lookUp(
    key: string,
    entry: Entry<T>,
    fetch: () => Promise<T>,
    serve: (answer: Outcome<T>) => void,
  ): Promise<Outcome<T>> {
    const now = this.options.now();
    this.learn(entry, await this.read(key));
    const previous = this.usable(entry.answer, now);
    if (previous && this.fresh(previous, now)) return previous;
    // The last answer at once, while Kite is asked (here or on another instance).
    if (previous) serve(previous);
    if (await this.claim(key, now)) return this.ask(key, entry, fetch);
    return previous ?? this.awaitAnswer(key, entry);
  }

  private async ask(key: string, entry: Entry<T>, fetch: () => Promise<T>): Promise<Outcome<T>> {
    const outcome = await fetch().then(
      (ok): Outcome<T> => ({ ok, at: this.options.now() }),
      (error: Error): Outcome<T> => ({ error: error.message, at: this.options.now() }),
    );
    this.learn(entry, outcome);
    try {
      await this.options.store.set(this.keyOf("answer", key), outcome, outcome.at);
    } catch (error) {
      log.warn({ err: error, key }, "Kite's answer could not be shared with the other instances");
    }
    return outcome;
  }

  /** Another instance claimed the key: its answer, when it comes within `waitMs`. */
  private async awaitAnswer(key: string, entry: Entry<T>): Promise<Outcome<T>> {
    const { pace, waitMs } = this.options;
    const deadline = pace.now() + waitMs;
    while (pace.now() < deadline) {
      await pace.sleep(POLL_MS);
      const answer = await this.read(key);
      if (answer && this.fresh(answer, this.options.now())) {
        this.learn(entry, answer);
        return answer;
      }
    }
    // Kept like a failure of Kite's until the claim is stale (its value is its time): the next
    // asks do not wait again, and once it is stale this instance claims the key itself.
    const claimedAt = await this.options.store.get<number>(this.keyOf("claim", key));
    const now = this.options.now();
    const none = {
      error: `another instance asked Kite and did not answer within ${waitMs} ms`,
      at: typeof claimedAt === "number" && claimedAt < now ? claimedAt : now,
    };
    this.learn(entry, none);
    return none;
  }

  private async claim(key: string, now: number): Promise<boolean> {
    const { store, ttlMs, maxStaleMs, name } = this.options;
    // The store keeps only the keys asked about lately: old ones go, once a minute at most.
    if (now - this.sweptAt >= ttlMs) {
      this.sweptAt = now;
      await store.deleteSetBefore(`kite.${name}.answer.`, now - maxStaleMs);
      await store.deleteSetBefore(`kite.${name}.claim.`, now - ttlMs);
    }
    // Stale once `ttlMs` old, as an answer is.
    return store.setIfStale(this.keyOf("claim", key), now, now, now - ttlMs + 1);
  }

  private async read(key: string): Promise<Outcome<T> | undefined> {
    const value = await this.options.store.get<Outcome<T>>(this.keyOf("answer", key));
    const valid =
      typeof value === "object" &&
      value !== null &&
      typeof value.at === "number" &&
      ("ok" in value || typeof (value as { error?: unknown }).error === "string");
    return valid ? value : undefined;
  }

  private learn(entry: Entry<T>, answer: Outcome<T> | undefined): void {
    if (answer && (!entry.answer || answer.at >= entry.answer.at)) entry.answer = answer;
  }

  private fresh(answer: Outcome<T>, now: number): boolean {
    return now - answer.at < this.options.ttlMs;
  }

  private usable(answer: Outcome<T> | undefined, now: number): Outcome<T> | undefined {
    return answer && now - answer.at < this.options.maxStaleMs ? answer : undefined;
  }

  private entryOf(key: string, now: number): Entry<T> {
    let entry = this.entries.get(key);
    if (entry) return entry;
    // Bounded by the keys asked about lately: drop the long-stale ones now and then.
    if (this.entries.size >= 1_000)
      for (const [k, e] of this.entries)
        if (!e.served && !this.usable(e.answer, now)) this.entries.delete(k);
    entry = {};
    this.entries.set(key, entry);
    return entry;
  }

  private keyOf(kind: "answer" | "claim", key: string): string {
    return `kite.${this.options.name}.${kind}.${key}`;
  }
}

/** A source without a store keeps its answers in memory: one instance on its own (tests). */
export function memoryAnswerStore(): AnswerStore {
  const rows = new Map<string, { value: unknown; at: number }>();
  return {
    get: async <V>(key: string) => rows.get(key)?.value as V | undefined,
    async set(key, value, now) {
      rows.set(key, { value, at: now });
    },
    async setIfStale(key, value, now, staleBefore) {
      const row = rows.get(key);
      if (row && row.at >= staleBefore) return false;
      rows.set(key, { value, at: now });
      return true;
    },
    async deleteSetBefore(prefix, before) {
      let deleted = 0;
      for (const [key, row] of rows)
        if (key.startsWith(prefix) && row.at < before && rows.delete(key)) deleted++;
      return deleted;
    },
  };
}
