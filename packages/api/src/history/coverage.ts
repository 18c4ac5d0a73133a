import type { InstrumentSpec } from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";
import { turn } from "./candle-sink.ts";
import { type BackfillProgress, backfillProgress, readBackfillStatus } from "./first-start.ts";
import { emptyStatus, FETCH_STATUS_PREFIX, type FetchStatus } from "./provider-history.ts";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Where an instrument's past in the window came from. */
export type CoverageSource = "kite" | "yahoo" | "recorded" | "simulated";

/** One row of Admin → Data and GET /api/history/coverage. */
export interface InstrumentCoverage {
  key: string;
  contract: string | null;
  source: CoverageSource;
  resolution: string;
  /** The first and last stored minute in the window (epoch ms), null when none. */
  from: number | null;
  to: number | null;
  /** One-minute rows stored in the window. */
  minutes: number;
  /** Windows the provider failed to fill: it failed, hung or answered half. */
  gaps: Array<{ from: number; to: number }>;
  fetching: boolean;
  /** Windows of the running (or last) fetch done and in all. */
  progress: { done: number; total: number };
  lastFetchAt: number | null;
  error: string | null;
}

export interface CoverageOptions {
  store: Pick<Store, "keyValues" | "instrumentCandles">;
  /** The statistics window the fetch fills, in days. */
  days: number;
  /** The feed's name: a simulator's past is made up, a replay's and a provider's recorded. */
  feed: string;
  now?: () => number;
}

/**
 * Every instrument in use with what the store holds of it in the statistics window and what the
 * leader's fetch last did (store.keyValues, so any instance answers the same).
 */
export async function historyCoverage(
  instruments: readonly InstrumentSpec[],
  options: CoverageOptions,
): Promise<InstrumentCoverage[]> {
  const now = (options.now ?? Date.now)();
  const windowFrom = Math.floor(now / MINUTE_MS) * MINUTE_MS - options.days * DAY_MS;
  const out: InstrumentCoverage[] = [];
  // The first start's backfill fills every instrument at once: each row shows its progress.
  const backfill = backfillProgress(await readBackfillStatus(options.store));
  for (const { key } of instruments) {
    out.push(
      await (async (): Promise<InstrumentCoverage> => {
        const status =
          (await options.store.keyValues.get<FetchStatus>(FETCH_STATUS_PREFIX + key)) ??
          emptyStatus(key);
        const stored = await storedMinutes(options.store, key, windowFrom, now);
        const fallback: CoverageSource = options.feed === "simulator" ? "simulated" : "recorded";
        return {
          key,
          contract: status.contract,
          source: status.source ?? fallback,
          resolution: status.resolution ?? "1m",
          ...stored,
          gaps: status.gaps,
          ...(backfill?.running
            ? { fetching: true, progress: { done: backfill.done, total: backfill.total } }
            : { fetching: status.fetching, progress: { done: status.done, total: status.total } }),
          lastFetchAt: status.lastFetchAt,
          error: status.error,
        };
      })(),
    );
  }
  return out;
}

/**
 * The first and last stored minute of a key in [from, to) and how many there are, read a day at
 * a time with a turn of the event loop between, so weeks of minutes never hold the server. Only
 * the times are needed: read as a typed column (`closes`), not a row object per minute (15 keys ×
 * 20 days of row objects took 2–3 s of a loaded server per Admin → Data load).
 */
async function storedMinutes(
  store: Pick<Store, "instrumentCandles">,
  key: string,
  from: number,
  to: number,
): Promise<{ from: number | null; to: number | null; minutes: number }> {
  let first: number | null = null;
  let last: number | null = null;
  let minutes = 0;
  for (let day = from; day < to; day += DAY_MS) {
    const { times } = await store.instrumentCandles.closes({
      symbol: key,
      timeframe: "1m",
      from: day,
      to: Math.min(to + MINUTE_MS, day + DAY_MS),
    });
    if (times.length > 0) {
      first ??= times[0] ?? null;
      last = (times[times.length - 1] as number) + MINUTE_MS;
      minutes += times.length;
    }
    await turn();
  }
  return { from: first, to: last, minutes };
}

/**
 * What /api/health says of the past: whether a fetch or the first start's backfill runs, each
 * key's last fetch error, and the backfill's days stored and in all (null where none was made).
 */
export async function historyHealth(
  keys: readonly string[],
  store: Pick<Store, "keyValues">,
): Promise<{
  fetching: boolean;
  errors: Record<string, string>;
  backfill: BackfillProgress | null;
}> {
  const statuses = await Promise.all(
    keys.map((key) => store.keyValues.get<FetchStatus>(FETCH_STATUS_PREFIX + key)),
  );
  const backfill = backfillProgress(await readBackfillStatus(store));
  const errors: Record<string, string> = {};
  for (const status of statuses) if (status?.error) errors[status.key] = status.error;
  const fetching = statuses.some((s) => s?.fetching === true) || backfill?.running === true;
  return { fetching, errors, backfill };
}

/** Whose past is on the way: every key while the first start's backfill runs, else the fetched. */
export interface HistoryLoading {
  backfill: boolean;
  fetching: ReadonlySet<string>;
}

/**
 * What the statistics say of their coverage (`coverage.loading` of GET /api/spread-stats): the
 * first start's backfill fills every key; a provider's fetch the keys it is fetching.
 */
export async function historyLoading(
  keys: readonly string[],
  store: Pick<Store, "keyValues">,
): Promise<HistoryLoading> {
  const backfill = (await readBackfillStatus(store))?.running === true;
  if (backfill) return { backfill, fetching: new Set() };
  const statuses = await Promise.all(
    keys.map((key) => store.keyValues.get<FetchStatus>(FETCH_STATUS_PREFIX + key)),
  );
  const fetching = new Set<string>();
  for (const status of statuses) if (status?.fetching) fetching.add(status.key);
  return { backfill, fetching };
}

/** Whether a spread on `legs` has more of its past on the way. */
export function legsLoading(loading: HistoryLoading, legs: readonly string[]): boolean {
  return loading.backfill || legs.some((key) => loading.fetching.has(key));
}
