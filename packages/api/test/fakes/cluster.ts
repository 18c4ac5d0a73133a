import { createDatabase, startPostgres } from "@spreadwatch/db/testing/postgres";
import { FakeTelegram } from "../fake-telegram.ts";
import { manualFeed, startTestServer, type TestServer } from "../server.ts";
import { telegramEnv } from "../telegram-trader.ts";
import { RedisServer } from "./redis-server.ts";
import { eventually } from "./wait.ts";

export interface TestCluster {
  redis: RedisServer;
  telegram: FakeTelegram;
  /** What every instance shares: DATABASE_URL, REDIS_URL, SESSION_SECRET, Telegram. */
  env: Record<string, string>;
  /** The first instance, on `feed`; it leads (waited for). */
  leader: TestServer;
  feed: ReturnType<typeof manualFeed>;
  /** The second instance, on a feed of its own that stays silent while it does not lead. */
  other: TestServer;
  stop(): Promise<void>;
}

/**
 * Two in-process instances on one real PostgreSQL (a fresh database) and one real redis-server,
 * with a fake Telegram on loopback: "leader" leads, "other" serves and waits. `extraEnv` goes to
 * both.
 */
export async function startCluster(extraEnv: Record<string, string> = {}): Promise<TestCluster> {
  const [postgres, redis, telegram] = await Promise.all([
    startPostgres(),
    new RedisServer().start(),
    new FakeTelegram().start(),
  ]);
  const database = await createDatabase(postgres.url);
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    SESSION_SECRET: "a-session-secret-shared-by-both-servers",
    ...telegramEnv(telegram),
    ...extraEnv,
  };
  const feed = manualFeed();
  const leader = await startTestServer({ env: { ...env, INSTANCE_ID: "leader" }, feed });
  // Contending runs beside the start: the first instance leads a moment after it listens.
  await eventually(
    async () => leader.services.instance.isLeader(),
    (leads) => leads,
    "the first instance to lead",
  );
  // It leads before its term has started the feed (after the alert engine and the executions
  // have read their state in): a quote pushed in between would reach nobody.
  await eventually(
    async () => feed.started,
    (started) => started,
    "the leader to start its feed",
  );
  const other = await startTestServer({
    env: { ...env, INSTANCE_ID: "other" },
    feed: manualFeed(),
  });
  return {
    redis,
    telegram,
    env,
    leader,
    feed,
    other,
    async stop() {
      await other.stop();
      await leader.stop();
      await telegram.stop();
      await redis.dispose();
      await database.drop();
      postgres.stop();
    },
  };
}
