import type { Quote } from "@spreadwatch/core";
import type { ProviderHealth } from "../feeds/providers/health.ts";

/**
 * What travels on the bus, by topic. A topic added here must be added to TOPICS too (the
 * compiler checks), so the Redis bus subscribes to it before anyone publishes.
 */
export interface BusMessages {
  /** Every quote the leader's feeds produce; each instance's hub takes them from here. */
  quote: Quote;
  /** A user's alerts (or what decides whether they fire, e.g. a Telegram link) changed. */
  "alerts.changed": { userId: number };
  /** A user's sessions changed (login, logout, the one-active-session rule ended one). */
  "sessions.changed": { userId: number };
  /** An admin added or removed an instrument: every instance reloads the instruments in use. */
  "instruments.changed": { key: string };
  /** A user's spread definition was created, changed or deleted: every instance reloads them. */
  "spreads.changed": { id: number };
  /** A user's positions were opened, changed, closed or rolled: every instance's clients refetch. */
  "positions.changed": { userId: number };
  /**
   * The leader's providers as its /api/health reports them, every few seconds while it leads:
   * an instance that does not lead has only an idle feed of its own to report otherwise.
   */
  "feed.health": { instanceId: string; providers: ProviderHealth[] };
  /** The leader stored a past for instruments put in use: statistics on them are read again. */
  "history.added": { keys: string[] };
  /**
   * The leader saw keys quote another contract (a roll): every other instance reads the
   * statistics of the spreads on them again from the new contracts' past (docs/history.md).
   */
  "contract.rolled": { instanceId: string; keys: string[] };
  /**
   * A live-order campaign was made or cancelled, or live orders were switched: the leader's
   * execution engine looks now rather than at its next idle poll.
   */
  "executions.changed": Record<string, never>;
  /** An admin asked for the providers' past again (all keys in use when null): the leader fetches. */
  "history.fetch": { keys: string[] | null };
}

export type Topic = keyof BusMessages;

const topicSet = {
  quote: true,
  "alerts.changed": true,
  "sessions.changed": true,
  "instruments.changed": true,
  "spreads.changed": true,
  "positions.changed": true,
  "feed.health": true,
  "history.added": true,
  "contract.rolled": true,
  "history.fetch": true,
  "executions.changed": true,
} as const satisfies Record<Topic, true>;

export const TOPICS = Object.keys(topicSet) as Topic[];
