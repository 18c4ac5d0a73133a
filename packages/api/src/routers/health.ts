import { readFileSync } from "node:fs";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import type { AppServices } from "../context.ts";
import { describeError, FEED_STATES, type ProviderHealth } from "../feeds/providers/health.ts";
import { publicProcedure } from "../trpc.ts";
import type { ShapeOf } from "./shared.ts";

const provider = z.object({
  name: z.string(),
  kind: z.string(),
  state: z.enum(FEED_STATES),
  delayed: z.boolean(),
  keys: z.array(z.string()),
  marketOpen: z.boolean().nullable(),
  lastQuoteAt: z.number().nullable(),
  lastQuoteAgeMs: z.number().nullable(),
  reconnects: z.number(),
  lastError: z.string().nullable(),
  lastErrorAt: z.number().nullable(),
  silenceMs: z.number(),
  contracts: z.record(z.string(), z.string()).optional(),
  missing: z.record(z.string(), z.string()).optional(),
} satisfies ShapeOf<ProviderHealth>);

const healthReply = z.object({
  ok: z.boolean(),
  feed: z.string(),
  providers: z.array(provider),
  prices: z.object({
    fresh: z.boolean(),
    lastQuoteAt: z.number().nullable(),
    lastQuoteAgeMs: z.number().nullable(),
    silenceMs: z.number(),
  }),
  database: z.object({
    ok: z.boolean(),
    error: z.string().nullable(),
    kind: z.enum(["sqlite", "postgres"]),
    state: z.enum(["up", "down"]),
  }),
  instance: z.object({ id: z.string(), leader: z.boolean() }),
  bus: z.object({ state: z.enum(["connected", "reconnecting", "down"]) }),
  telegram: z.object({ configured: z.boolean() }),
  /**
   * The past: whether the leader is fetching (a provider's past or the first start's backfill),
   * each key's last fetch error, and the first start's backfill in days (null where none ran).
   */
  history: z.object({
    fetching: z.boolean(),
    errors: z.record(z.string(), z.string()),
    backfill: z.object({ running: z.boolean(), done: z.number(), total: z.number() }).nullable(),
  }),
  uptimeSeconds: z.number(),
  version: z.string(),
  timestamp: z.number(),
});

const VERSION: string = (() => {
  try {
    const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    return String((JSON.parse(text) as { version?: unknown }).version ?? "unknown");
  } catch {
    return "unknown";
  }
})();

async function databaseHealth(
  services: AppServices,
): Promise<{ ok: boolean; error: string | null }> {
  try {
    await services.store.users.count();
    return { ok: true, error: null };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}

/** A database that cannot answer is reported under `database`; the history section stays empty. */
async function historyOf(services: AppServices): Promise<HealthReport["history"]> {
  try {
    return await services.history.health();
  } catch {
    return { fetching: false, errors: {}, backfill: null };
  }
}

/**
 * Everything an operator or the dashboard needs to trust the numbers, and nothing secret: the
 * feed and each provider's state, the database, whether Telegram is set up, uptime and version.
 * `ok` is false when the hub has had no new price within the feed's silence window
 * (FEED_SILENCE_SECONDS, 10 s by default): REST answers 503 then.
 */
export async function healthReport(services: AppServices): Promise<HealthReport> {
  const database = await databaseHealth(services);
  const now = Date.now();
  const feeds = services.health.feeds();
  return {
    ok: feeds.fresh,
    feed: feeds.feed,
    providers: feeds.providers,
    prices: {
      fresh: feeds.fresh,
      lastQuoteAt: feeds.lastQuoteAt,
      lastQuoteAgeMs: feeds.lastQuoteAgeMs,
      silenceMs: feeds.silenceMs,
    },
    database: { ...database, kind: services.store.kind, state: database.ok ? "up" : "down" },
    instance: { id: services.instance.id, leader: services.instance.isLeader() },
    bus: { state: services.bus.state() },
    telegram: { configured: services.notifier !== undefined },
    history: await historyOf(services),
    uptimeSeconds: Math.floor((now - services.health.startedAt) / 1000),
    version: VERSION,
    timestamp: now,
  };
}

export type HealthReport = z.infer<typeof healthReply>;

export const healthRouter = {
  status: publicProcedure.output(healthReply).query(({ ctx }) => healthReport(ctx.services)),
} satisfies TRPCRouterRecord;
