import type { Quote } from "@spreadwatch/core";
import { log } from "../../log.ts";
import type { Feed } from "../feed.ts";
import { DEFAULT_SILENCE_MS, HealthTracker, type ProviderHealth } from "./health.ts";
import { QuoteTally } from "./quote-tally.ts";

export interface FeedHealthReport {
  /** FEED: simulator, replay, composite… */
  feed: string;
  providers: ProviderHealth[];
  /** When the hub last accepted a quote (epoch ms, this server's clock). */
  lastQuoteAt: number | null;
  lastQuoteAgeMs: number | null;
  /** The hub accepted a quote within the feed's silence window; /api/health is 503 otherwise. */
  fresh: boolean;
  /** That window (FEED_SILENCE_SECONDS, or the market data config's). */
  silenceMs: number;
}

/**
 * Watches what the running feed delivers to the hub. A feed that reports no health of its own
 * (simulator, replay, a test's manual feed) gets one entry, judged by the quotes it delivers.
 */
/** A leader's report older than this is not shown: the leader may be gone. */
export const LEADER_HEALTH_FRESH_MS = 15_000;

export class FeedMonitor {
  private lastAcceptedAt: number | null = null;
  private leaders: { providers: ProviderHealth[]; at: number } | undefined;
  /** Whether this instance follows another's feed (does not lead); see `leaderProviders`. */
  following: () => boolean = () => false;
  private readonly fallback: HealthTracker | undefined;
  private readonly staleAfterMs: number;
  /** Accepted quotes per source and key, for /metrics. */
  readonly quotes = new QuoteTally();

  constructor(
    private readonly feed: Feed,
    private readonly now: () => number = Date.now,
  ) {
    this.staleAfterMs = feed.staleAfterMs ?? DEFAULT_SILENCE_MS;
    if (!feed.health) {
      this.fallback = new HealthTracker({
        name: feed.name,
        kind: feed.name,
        keys: [],
        staleAfterMs: this.staleAfterMs,
        now,
      });
      this.fallback.open();
    }
  }

  /** Called for every quote the hub accepted. */
  accepted(quote: Quote): void {
    this.lastAcceptedAt = this.now();
    this.quotes.count(quote);
    if (this.fallback) {
      this.fallback.keys.add(quote.key);
      this.fallback.quote();
    }
  }

  /**
   * The leader's providers (from the bus): an instance that does not lead reports them instead
   * of its own idle feed's, so its /api/health and Admin → Instruments show what actually quotes.
   */
  leaderProviders(providers: ProviderHealth[]): void {
    this.leaders = { providers, at: this.now() };
  }

  report(): FeedHealthReport {
    const now = this.now();
    const age = this.lastAcceptedAt === null ? null : Math.max(0, now - this.lastAcceptedAt);
    return {
      feed: this.feed.name,
      providers: this.providers(now),
      lastQuoteAt: this.lastAcceptedAt,
      lastQuoteAgeMs: age,
      fresh: age !== null && age <= this.staleAfterMs,
      silenceMs: this.staleAfterMs,
    };
  }

  private providers(now: number): ProviderHealth[] {
    const leaders = this.leaders;
    if (leaders && this.following() && now - leaders.at <= LEADER_HEALTH_FRESH_MS)
      // Ages as of now, not as of the leader's message.
      return leaders.providers.map((p) => ({
        ...p,
        lastQuoteAgeMs: p.lastQuoteAt === null ? null : Math.max(0, now - p.lastQuoteAt),
      }));
    try {
      return this.feed.health?.() ?? (this.fallback ? [this.fallback.report()] : []);
    } catch (error) {
      // Health must answer even if a provider's report is broken.
      log.error({ err: error }, "feed health report failed");
      return [];
    }
  }
}
