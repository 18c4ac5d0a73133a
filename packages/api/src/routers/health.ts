import { readFileSync } from "node:fs";
import type { TRPCRouterRecord } from "@trpc/server";
import type { AppServices } from "../context.ts";
import { describeError } from "../feeds/providers/health.ts";
import { publicProcedure } from "../trpc.ts";

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

/**
 * Everything an operator or the dashboard needs to trust the numbers, and nothing secret: the
 * feed and each provider's state, the database, whether Telegram is set up, uptime and version.
 * `ok` is false when the hub has had no new price within the feed's silence window
 * (FEED_SILENCE_SECONDS, 10 s by default): REST answers 503 then.
 */
export async function healthReport(services: AppServices) {
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
    uptimeSeconds: Math.floor((now - services.health.startedAt) / 1000),
    version: VERSION,
    timestamp: now,
  };
}

export type HealthReport = Awaited<ReturnType<typeof healthReport>>;

export const healthRouter = {
  status: publicProcedure.query(({ ctx }) => healthReport(ctx.services)),
} satisfies TRPCRouterRecord;
