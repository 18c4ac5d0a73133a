// The leader's fetch of the providers' past (docs/market-data.md, "The past from the providers"):
// each instrument in use gets one-minute history of the contract it quotes now, for the
// statistics window, from the provider that quotes it live. What it did is kept per key in
// store.keyValues (history.fetch.<key>), so any instance reports coverage and a leader that
// crashed mid-fetch carries on where the last written window ended.
import type { InstrumentSpec } from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";
import type { KiteSettings } from "../config/index.ts";
import { routeInstruments } from "../feeds/providers/composite.ts";
import type { MarketDataConfig, ProviderConfig } from "../feeds/providers/config-file.ts";
import { keysOf } from "../feeds/providers/config-file.ts";
import { describeError } from "../feeds/providers/health.ts";
import { KiteContracts } from "../feeds/providers/kite/contracts.ts";
import { type Auth, kiteCredentials } from "../feeds/providers/kite/credentials.ts";
import type { KiteSessions } from "../feeds/providers/kite/session.ts";
import { istDate } from "../feeds/providers/market-hours.ts";
import { log } from "../log.ts";
import { isOutboundTimeout } from "../outbound/policy.ts";
import type { CandleSink, HistoryCandle, HistorySource } from "./candle-sink.ts";
import {
  KITE_HISTORY_PER_SECOND,
  KITE_MINUTE_DAYS_PER_REQUEST,
  KiteHistory,
  RequestPacer,
  windowsOf,
} from "./kite-history.ts";
import { YahooChart, type YahooInterval, yahooHistorySymbol, yahooWindows } from "./yahoo-chart.ts";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
export const FETCH_STATUS_PREFIX = "history.fetch.";

/** What the leader last did for a key's past: the coverage report reads it. */
export interface FetchStatus {
  key: string;
  contract: string | null;
  source: HistorySource | null;
  /** "1m", or "1m+5m" where Yahoo had 5-minute bars only (older than 30 days). */
  resolution: string | null;
  /** The window the fetch covers from (the statistics window's start when it began). */
  windowFrom: number | null;
  /** Everything before this (down to windowFrom) was fetched and written. */
  fetchedTo: number | null;
  fetching: boolean;
  /** Windows done and in all, for a progress bar. */
  done: number;
  total: number;
  /** Windows the provider failed, hung or answered nothing for. */
  gaps: Array<{ from: number; to: number }>;
  error: string | null;
  lastFetchAt: number | null;
}

/** One window of one key's fetch. */
interface Job {
  spec: InstrumentSpec;
  contract: string;
  source: HistorySource;
  windows: Array<{ from: number; to: number; interval: YahooInterval }>;
  fetch: (window: {
    from: number;
    to: number;
    interval: YahooInterval;
  }) => Promise<HistoryCandle[]>;
  windowFrom: number;
}

export interface ProviderHistoryOptions {
  store: Pick<Store, "keyValues">;
  sink: CandleSink;
  market: MarketDataConfig;
  kite: KiteSettings;
  sessions: Pick<KiteSessions, "read">;
  /** The statistics window: how far back to fetch (20 days by default, at most 60). */
  days: number;
  /** One request's limit (a hang is a failure after this long). */
  timeoutMs: number;
  /** How often to look for work: a new contract, a Kite login, a failed window to try again. */
  checkMs: number;
  /** A window that failed is tried again this long after. */
  retryMs?: number;
  /** Told the keys that got new candles, once they are written. */
  onFetched: (keys: ReadonlySet<string>) => Promise<void> | void;
  now?: () => number;
}

type Route = { kind: "kite" | "yahoo"; config: ProviderConfig } | { missing: string };

/**
 * The leader's fetch job. `start` looks at every instrument in use (catching up the time the
 * server was down), then every `checkMs` looks again for keys that need it (a new contract after
 * a roll, a Kite login that arrived, a failed window due again); `fetch` adds keys put in use or
 * asked for by an admin. All work runs in the background: nothing waits on it.
 */
export class ProviderHistory {
  private readonly now: () => number;
  private readonly pacer = new RequestPacer(KITE_HISTORY_PER_SECOND);
  private readonly contracts: KiteContracts;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private pending: { keys: Set<string> | "all"; force: boolean; catchUp: boolean } | undefined;
  private instruments: () => readonly InstrumentSpec[] = () => [];
  private readonly abort = new AbortController();
  private stopped = false;

  constructor(private readonly options: ProviderHistoryOptions) {
    this.now = options.now ?? Date.now;
    const kite = Object.values(options.market.providers).find((p) => p.type === "kite");
    this.contracts = new KiteContracts({
      name: "kite history",
      apiRoot: options.kite.apiRoot,
      rollDaysBeforeExpiry: kite?.type === "kite" ? kite.rollDaysBeforeExpiry : 0,
      maxInstruments: Number.MAX_SAFE_INTEGER,
      dateNow: this.now,
      note: () => {},
    });
  }

  start(instruments: () => readonly InstrumentSpec[]): void {
    this.instruments = instruments;
    this.request("all", { catchUp: true });
    this.timer = setInterval(() => this.request("all", {}), this.options.checkMs);
    this.timer.unref();
  }

  /** Fetches these keys' past (all in use without keys); `force` fetches the whole window again. */
  fetch(keys: readonly string[] | undefined, force = false): void {
    this.request(keys ? new Set(keys) : "all", { force });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.abort.abort();
    await this.running?.catch(() => undefined);
  }

  /** Resolves once no fetch is running or queued (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  private request(keys: Set<string> | "all", how: { force?: boolean; catchUp?: boolean }): void {
    if (this.stopped) return;
    const p = this.pending;
    this.pending = {
      keys: p?.keys === "all" || keys === "all" ? "all" : new Set([...(p?.keys ?? []), ...keys]),
      force: (p?.force ?? false) || (how.force ?? false),
      catchUp: (p?.catchUp ?? false) || (how.catchUp ?? false),
    };
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
  }

  private async drain(): Promise<void> {
    while (this.pending && !this.stopped) {
      const { keys, force, catchUp } = this.pending;
      this.pending = undefined;
      try {
        await this.sweep(keys, force, catchUp);
      } catch (error) {
        log.warn({ err: error }, "could not fetch the providers' history");
      }
    }
  }

  private async status(key: string): Promise<FetchStatus | undefined> {
    return this.options.store.keyValues.get<FetchStatus>(FETCH_STATUS_PREFIX + key);
  }

  private async save(status: FetchStatus): Promise<void> {
    await this.options.store.keyValues.set(FETCH_STATUS_PREFIX + status.key, status, this.now());
  }

  private async sweep(keys: Set<string> | "all", force: boolean, catchUp: boolean) {
    const specs = this.instruments().filter((s) => keys === "all" || keys.has(s.key));
    const providers = Object.values(this.options.market.providers).map((p) => ({
      kind: p.type,
      keys: keysOf(p),
      config: p,
    }));
    const { routes } = routeInstruments(providers, specs);
    const routeOf = new Map<string, Route>();
    routes.forEach((mine, i) => {
      const p = providers[i];
      for (const spec of mine) {
        if (!p || p.kind === "http-json")
          routeOf.set(spec.key, { missing: `${p?.kind ?? "its provider"} serves no history` });
        else routeOf.set(spec.key, { kind: p.kind, config: p.config });
      }
    });
    const now = this.now();
    const to = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    const windowFrom = to - this.options.days * DAY_MS;
    const auth = await this.kiteAuth();
    const jobs: Job[] = [];
    for (const spec of specs) {
      const route = routeOf.get(spec.key) ?? { missing: "no provider quotes it" };
      const previous = await this.status(spec.key);
      const planned = await this.plan(spec, route, auth, now);
      if ("missing" in planned) {
        if (previous?.error !== planned.missing)
          await this.save({
            ...emptyStatus(spec.key),
            ...previous,
            fetching: false,
            error: planned.missing,
          });
        continue;
      }
      const { contract, source, fetch } = planned;
      // How far the last fetch of this contract got, its failed windows included: a fetch whose
      // every window failed (a 404, a provider down) waits for the retry like any gap, instead of
      // asking the provider again on every check.
      const reached = previous ? lastTried(previous) : null;
      const same =
        !force &&
        previous?.contract === contract &&
        previous.source === source &&
        reached !== null &&
        (previous.windowFrom ?? Number.POSITIVE_INFINITY) <= windowFrom + DAY_MS;
      const retryDue =
        same &&
        previous.gaps.length > 0 &&
        now - (previous.lastFetchAt ?? 0) >= (this.options.retryMs ?? 5 * 60_000);
      // A fetch cut short (a crash, a step-down) carries on from where it wrote last.
      const interrupted = same && previous.fetching;
      if (same && !catchUp && !retryDue && !interrupted) continue;
      const from = same ? Math.max(windowFrom, reached ?? windowFrom) : windowFrom;
      const spans = same ? [...previous.gaps.filter((g) => g.to > windowFrom)] : [];
      if (to - from >= MINUTE_MS) spans.push({ from, to });
      const windows = spans.flatMap((span) => planned.windows(span.from, span.to, now));
      if (windows.length === 0) continue;
      jobs.push({
        spec,
        contract,
        source,
        windows,
        fetch,
        windowFrom: same ? (previous.windowFrom ?? windowFrom) : windowFrom,
      });
    }
    if (jobs.length === 0) return;
    // Every key's progress shows at once; Kite's pacer spaces its requests across keys.
    for (const job of jobs) await this.save(this.begun(job, await this.status(job.spec.key)));
    const fetched = new Set<string>();
    await Promise.all(
      jobs.map(async (job) => {
        if (await this.run(job)) fetched.add(job.spec.key);
      }),
    );
    if (fetched.size > 0 && !this.stopped) await this.options.onFetched(fetched);
  }

  private begun(job: Job, previous: FetchStatus | undefined): FetchStatus {
    const same = previous?.contract === job.contract && previous.source === job.source;
    return {
      key: job.spec.key,
      contract: job.contract,
      source: job.source,
      resolution: job.windows.some((w) => w.interval === "5m")
        ? "1m+5m"
        : same
          ? (previous?.resolution ?? "1m")
          : "1m",
      windowFrom: job.windowFrom,
      fetchedTo: same ? (previous?.fetchedTo ?? null) : null,
      fetching: true,
      done: 0,
      total: job.windows.length,
      gaps: [],
      error: null,
      lastFetchAt: previous?.lastFetchAt ?? null,
    };
  }

  /** Fetches and writes a job's windows oldest first; true when any candle was new. */
  private async run(job: Job): Promise<boolean> {
    const key = job.spec.key;
    let status = (await this.status(key)) ?? this.begun(job, undefined);
    let added = 0;
    for (const window of job.windows) {
      if (this.stopped) return added > 0;
      try {
        const candles = await job.fetch(window);
        added += await this.options.sink.write(key, job.contract, job.source, candles);
        status = {
          ...status,
          fetchedTo: Math.max(status.fetchedTo ?? 0, window.to),
          done: status.done + 1,
        };
      } catch (error) {
        if (this.stopped) return added > 0;
        const why = isOutboundTimeout(error)
          ? `no answer within ${this.options.timeoutMs / 1000} s`
          : describeError(error);
        const reason = `${job.source === "kite" ? "Kite" : "Yahoo"}: ${why}`;
        log.warn(
          { key, contract: job.contract, err: error },
          "a history window could not be fetched",
        );
        status = {
          ...status,
          done: status.done + 1,
          gaps: [...status.gaps, { from: window.from, to: window.to }],
          error: reason,
        };
      }
      await this.save(status);
    }
    await this.save({ ...status, fetching: false, lastFetchAt: this.now() });
    return added > 0;
  }

  private async kiteAuth(): Promise<Auth | { missing: string }> {
    try {
      const stored = await this.options.sessions.read(this.now());
      return kiteCredentials(this.options.kite, stored, undefined);
    } catch (error) {
      return { missing: `could not read the Kite session: ${describeError(error)}` };
    }
  }

  /** The contract a key quotes now, and how to fetch its past; or why it cannot be fetched. */
  private async plan(
    spec: InstrumentSpec,
    route: Route,
    auth: Auth | { missing: string },
    now: number,
  ): Promise<
    | {
        contract: string;
        source: HistorySource;
        windows: (from: number, to: number, now: number) => Job["windows"];
        fetch: Job["fetch"];
      }
    | { missing: string }
  > {
    if ("missing" in route) return route;
    const timeoutMs = this.options.timeoutMs;
    const signal = this.abort.signal;
    if (route.kind === "yahoo" && route.config.type === "yahoo") {
      const found = yahooHistorySymbol(
        spec.key,
        spec,
        (route.config.symbols as Record<string, string>)[spec.key],
        istDate(now),
      );
      if ("missing" in found) return found;
      const chart = new YahooChart({ baseUrl: route.config.baseUrl, timeoutMs });
      return {
        contract: found.contract,
        source: "yahoo",
        windows: yahooWindows,
        fetch: (window) => chart.window(found.symbol, window, signal),
      };
    }
    if ("missing" in auth) return { missing: `Kite: ${auth.missing}` };
    let picks: Awaited<ReturnType<KiteContracts["pick"]>>;
    try {
      picks = await this.contracts.pick(new Map([[spec.key, spec]]), auth, signal);
    } catch (error) {
      return { missing: `Kite's instruments list: ${describeError(error)}` };
    }
    const [token, pick] = [...picks.tokens][0] ?? [];
    if (token === undefined || !pick) {
      const why = picks.missing[spec.key] ?? "not in Kite's instruments list";
      return {
        missing: /expired/.test(why)
          ? `${why}: Kite keeps no intraday history of expired contracts`
          : why,
      };
    }
    const kite = new KiteHistory({
      apiRoot: this.options.kite.apiRoot,
      pacer: this.pacer,
      timeoutMs,
    });
    return {
      contract: pick.instrument.tradingsymbol,
      source: "kite",
      windows: (from, to) =>
        windowsOf(from, to, KITE_MINUTE_DAYS_PER_REQUEST).map(([f, t]) => ({
          from: f,
          to: t,
          interval: "1m" as const,
        })),
      fetch: (window) => kite.window(auth, token, window.from, window.to, signal),
    };
  }
}

/** The end of the last window a fetch wrote or gave up on; null before any window was tried. */
function lastTried(status: FetchStatus): number | null {
  const ends = status.gaps.map((gap) => gap.to);
  if (status.fetchedTo !== null) ends.push(status.fetchedTo);
  return ends.length > 0 ? Math.max(...ends) : null;
}

export function emptyStatus(key: string): FetchStatus {
  return {
    key,
    contract: null,
    source: null,
    resolution: null,
    windowFrom: null,
    fetchedTo: null,
    fetching: false,
    done: 0,
    total: 0,
    gaps: [],
    error: null,
    lastFetchAt: null,
  };
}
