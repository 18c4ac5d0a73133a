/**
 * Health of one source of quotes, as /api/health and the admin panel show it. Ages are measured
 * on this server's clock when quotes arrive, never from the quotes' own timestamps, so a delayed
 * source that delivers on time is healthy.
 */
export const FEED_STATES = [
  "connecting",
  "live",
  "delayed",
  "stale",
  "down",
  "not_configured",
] as const;
export type FeedState = (typeof FEED_STATES)[number];

export interface ProviderHealth {
  /** The provider's name in the market data config (or the feed's name: simulator, replay). */
  name: string;
  kind: string;
  state: FeedState;
  /** The source publishes late on purpose (Yahoo); its fresh state is `delayed`, not `live`. */
  delayed: boolean;
  /** The quote keys this provider serves (GC, GOLD, USDINR…). */
  keys: string[];
  /** Whether its market is open now, for providers that know their hours. */
  marketOpen: boolean | null;
  /** When the last quote arrived (epoch ms, this server's clock). */
  lastQuoteAt: number | null;
  lastQuoteAgeMs: number | null;
  /** Reconnection (or, for polled sources, retry) attempts after a failure since start. */
  reconnects: number;
  lastError: string | null;
  lastErrorAt: number | null;
  /** Without a new quote for this long the provider is `stale` (FEED_SILENCE_SECONDS, or its own). */
  silenceMs: number;
  /** The exchange contracts in use, e.g. `{ GOLD: "GOLD26FEBFUT" }`, where the provider picks them. */
  contracts?: Record<string, string>;
  /**
   * Keys in use that this provider cannot serve, each with why, e.g. `{ "GOLD@far": "no far
   * contract for GOLD in Kite's instruments list" }`: shown on /api/health and Admin → Instruments.
   */
  missing?: Record<string, string>;
}

/** FEED_SILENCE_SECONDS' default: silence is noticed within 10 s on every feed. */
export const DEFAULT_SILENCE_MS = 10_000;

export interface TrackerOptions {
  name: string;
  kind: string;
  keys: readonly string[];
  delayed?: boolean;
  /** Without a quote for this long, an open connection is `stale` (default 10 s). */
  staleAfterMs?: number;
  now?: () => number;
  /** Tells whether the provider's market is open at a time; absent = unknown. */
  marketOpen?: (now: number) => boolean;
}

type Phase = "connecting" | "open" | "down" | "not_configured";

/** A readable one-liner for any thrown value; never a stack trace, never a secret. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** Counts what a provider goes through and says what state it is in. */
export class HealthTracker {
  private phase: Phase = "connecting";
  private openedAt: number | null = null;
  private lastQuoteAt: number | null = null;
  private reconnects = 0;
  private lastError: string | null = null;
  private lastErrorAt: number | null = null;
  private contracts: Record<string, string> | undefined;
  private missing: Record<string, string> = {};
  readonly keys: Set<string>;
  private readonly now: () => number;
  private readonly staleAfterMs: number;

  constructor(private readonly options: TrackerOptions) {
    this.keys = new Set(options.keys);
    this.now = options.now ?? Date.now;
    this.staleAfterMs = options.staleAfterMs ?? DEFAULT_SILENCE_MS;
  }

  /** The connection is up (or a poll succeeded). */
  open(): void {
    if (this.phase !== "open") this.openedAt = this.now();
    this.phase = "open";
  }

  quote(): void {
    this.lastQuoteAt = this.now();
    this.open();
  }

  /** The connection failed or a poll failed; it stays down until `open`. */
  fail(error: unknown): void {
    this.phase = "down";
    this.noteError(error);
  }

  /** Credentials or settings are missing; nothing is tried until they appear. */
  notConfigured(reason: string): void {
    this.phase = "not_configured";
    this.noteError(reason);
  }

  /** A new attempt after a failure. */
  reconnecting(): void {
    this.reconnects++;
    if (this.phase === "not_configured") this.phase = "connecting";
  }

  noteError(error: unknown): void {
    this.lastError = describeError(error);
    this.lastErrorAt = this.now();
  }

  setContracts(contracts: Record<string, string>): void {
    this.contracts = contracts;
  }

  /** The keys this provider now serves (the instruments in use changed). */
  setKeys(keys: Iterable<string>): void {
    this.keys.clear();
    for (const key of keys) this.keys.add(key);
  }

  /** Keys it was given but cannot serve, each with why; reported only while there are some. */
  setMissing(missing: Record<string, string>): void {
    this.missing = { ...missing };
  }

  get state(): FeedState {
    const now = this.now();
    if (this.phase !== "open") return this.phase;
    const fresh = (since: number | null) => since !== null && now - since <= this.staleAfterMs;
    if (fresh(this.lastQuoteAt)) return this.options.delayed ? "delayed" : "live";
    // Just (re)opened and no quote yet: give the source its stale window before calling it stale.
    if (fresh(this.openedAt) && (this.lastQuoteAt ?? 0) < (this.openedAt ?? 0)) return "connecting";
    return "stale";
  }

  report(): ProviderHealth {
    const now = this.now();
    return {
      name: this.options.name,
      kind: this.options.kind,
      state: this.state,
      delayed: this.options.delayed ?? false,
      keys: [...this.keys],
      marketOpen: this.options.marketOpen ? this.options.marketOpen(now) : null,
      lastQuoteAt: this.lastQuoteAt,
      lastQuoteAgeMs: this.lastQuoteAt === null ? null : Math.max(0, now - this.lastQuoteAt),
      reconnects: this.reconnects,
      lastError: this.lastError,
      lastErrorAt: this.lastErrorAt,
      silenceMs: this.staleAfterMs,
      ...(this.contracts && { contracts: { ...this.contracts } }),
      ...(Object.keys(this.missing).length > 0 && { missing: { ...this.missing } }),
    };
  }
}
