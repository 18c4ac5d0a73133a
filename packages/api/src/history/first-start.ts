import type { Duties, Quote } from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";
import { log } from "../log.ts";
import { backfillCandles, backfillDays } from "./backfill.ts";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Where the first start's backfill keeps how far it got (store.keyValues: any instance reads it). */
export const BACKFILL_STATUS_KEY = "history.backfill";

/** The first start's backfill: its window, how far it is stored, and whether it runs. */
export interface BackfillStatus {
  /** The window it fills, [from, to): to is the minute the first start began in. */
  from: number;
  to: number;
  /** Everything before this is stored; a resumed backfill starts here. */
  doneTo: number;
  /** True from the first start until the window is stored, also across a crash. */
  running: boolean;
  finishedAt: number | null;
}

/** What /api/health and Admin → Data say of it: days stored and in all. */
export interface BackfillProgress {
  running: boolean;
  done: number;
  total: number;
}

export function backfillProgress(status: BackfillStatus | undefined): BackfillProgress | null {
  if (!status) return null;
  const total = Math.ceil((status.to - status.from) / DAY_MS);
  const done = status.running ? Math.floor((status.doneTo - status.from) / DAY_MS) : total;
  return { running: status.running, done: Math.min(done, total), total };
}

export function readBackfillStatus(
  store: Pick<Store, "keyValues">,
): Promise<BackfillStatus | undefined> {
  return store.keyValues.get<BackfillStatus>(BACKFILL_STATUS_KEY);
}

export interface FirstStartOptions {
  store: Store;
  /** The feed's past (Feed.history); a feed without one makes no backfill. */
  history: ((from: number, to: number) => Iterable<Quote[]>) | undefined;
  duties: Duties;
  /** The keys in use when it starts (the others' quotes give their contract a past only). */
  inUse: ReadonlySet<string>;
  retentionMs?: number;
  /** The start-up notice (the line the e2e set-up and operators wait for). */
  notice: (text: string) => void;
  now?: () => number;
}

/**
 * The simulator's first-start backfill (docs/history.md, "The first start"), run after the
 * server listens: a month of one-minute history made and stored a slice at a time, the event
 * loop given back between slices, how far it got kept in the store so that a start after a crash
 * or a stop carries on where it was (a minute stored twice is one row: the stores merge a bucket
 * and never add a contract's minute twice).
 */
export class FirstStartBackfill {
  private readonly stopping = new AbortController();
  private running: Promise<boolean> | undefined;
  private planned: Promise<BackfillStatus | undefined> | undefined;

  constructor(private readonly options: FirstStartOptions) {}

  /**
   * Whether a backfill is due (a fresh store, or one an interrupted run left): known before the
   * feed starts, so what must wait for it (the roll recorder) knows from the first quote.
   */
  async due(): Promise<boolean> {
    this.planned ??= this.plan();
    return (await this.planned) !== undefined;
  }

  /**
   * Starts (or resumes) the backfill when one is due; resolves true once it stored its whole
   * window, false when none was due or it was stopped first. Never rejects: a failure is logged
   * and the next leader start resumes.
   */
  run(): Promise<boolean> {
    this.running ??= this.runNow().catch((error) => {
      log.error({ err: error }, "the first start's backfill failed; the next start resumes it");
      return false;
    });
    return this.running;
  }

  /** The minute the backfill's window ends at (the first start's), when one was due. */
  async startMinute(): Promise<number | undefined> {
    this.planned ??= this.plan();
    return (await this.planned)?.to;
  }

  /** Stops between slices and waits for the slice in hand (the leader steps down). */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }

  /** The window still to fill: resumed, fresh on an empty store, or none. */
  private async plan(): Promise<BackfillStatus | undefined> {
    const { store, history, retentionMs } = this.options;
    if (!history) return undefined;
    const status = await readBackfillStatus(store);
    if (status) return status.running ? status : undefined;
    // A store with history and no status is from before the backfill kept one: it is done.
    if (await store.candles.has("1m")) return undefined;
    const now = (this.options.now ?? Date.now)();
    const to = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    const from = to - Math.round(backfillDays(retentionMs) * DAY_MS);
    const fresh: BackfillStatus = { from, to, doneTo: from, running: true, finishedAt: null };
    await this.save(fresh);
    return fresh;
  }

  private save(status: BackfillStatus): Promise<void> {
    return this.options.store.keyValues.set(BACKFILL_STATUS_KEY, status, Date.now());
  }

  private async runNow(): Promise<boolean> {
    const { store, history, duties, inUse } = this.options;
    this.planned ??= this.plan();
    const status = await this.planned;
    if (!status || !history) return false;
    const started = performance.now();
    // Rolls an interrupted run already stored from where it resumes (none on a fresh start).
    const rolledUntil = new Map<string, number>();
    for (const roll of await store.contracts.rolls({
      from: status.doneTo,
      to: status.to,
      limit: 10_000,
    }))
      rolledUntil.set(roll.key, Math.max(roll.at, rolledUntil.get(roll.key) ?? roll.at));
    const { minutes, rolls } = await backfillCandles(
      store,
      history(status.doneTo, status.to),
      duties,
      {
        inUse,
        rolledUntil,
        signal: this.stopping.signal,
        onStored: (doneTo) => this.save({ ...status, doneTo }),
      },
    );
    if (this.stopping.signal.aborted) return false;
    await this.save({ ...status, doneTo: status.to, running: false, finishedAt: Date.now() });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const days = ((status.to - status.doneTo) / DAY_MS).toLocaleString("en-US");
    this.options.notice(
      `Backfilled ${days} days of simulated history (${minutes.toLocaleString("en-US")} one-minute candles, ${rolls} contract rolls) in ${seconds} s.`,
    );
    return true;
  }
}
