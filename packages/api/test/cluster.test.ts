// Two instances on one real PostgreSQL and one real redis-server (DESIGN §9), in this process:
// the leader's feed reaches the other instance's hub through Redis, and an alert made on the
// instance that does not lead is fired once, by the leader, after alerts.changed crossed Redis.
// (Still to come: child processes and a kill -9 of the leader; see the branch report.)
import { createDatabase, startPostgres } from "@spreadwatch/db/testing/postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crossingTime, HIGH_ASK, LOW_ASK } from "./crossing-replay.ts";
import { FakeTelegram } from "./fake-telegram.ts";
import { RedisServer } from "./fakes/redis-server.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";
import { CHAT, settled, signIn, telegramEnv, traderWithAlert } from "./telegram-trader.ts";

let postgres: Awaited<ReturnType<typeof startPostgres>>;
let database: Awaited<ReturnType<typeof createDatabase>>;
let redis: RedisServer;
let telegram: FakeTelegram;
const feed = manualFeed();
let leader: TestServer;
let other: TestServer;

beforeAll(async () => {
  [postgres, redis, telegram] = await Promise.all([
    startPostgres(),
    new RedisServer().start(),
    new FakeTelegram().start(),
  ]);
  database = await createDatabase(postgres.url);
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    SESSION_SECRET: "a-session-secret-shared-by-both-servers",
    ...telegramEnv(telegram),
  };
  leader = await startTestServer({ env: { ...env, INSTANCE_ID: "leader" }, feed });
  other = await startTestServer({ env: { ...env, INSTANCE_ID: "other" }, feed: manualFeed() });
}, 120_000);

afterAll(async () => {
  await other?.stop();
  await leader?.stop();
  await telegram?.stop();
  await redis?.dispose();
  await database?.drop();
  postgres?.stop();
});

const health = async (server: TestServer) =>
  (await new HttpClient(server.url).get("/api/health")).body;

describe("two instances on PostgreSQL and Redis", () => {
  it("one leads; both are on the Redis bus", async () => {
    // Contending runs beside the start: the first instance leads a moment after it listens.
    await eventually(
      () => health(leader),
      (h) => h.instance.leader,
      "the first instance to lead",
    );
    expect(await health(leader)).toMatchObject({
      instance: { id: "leader", leader: true },
      bus: { state: "connected" },
      database: { kind: "postgres", state: "up" },
    });
    expect(await health(other)).toMatchObject({ instance: { id: "other", leader: false } });
  });

  it("an alert made on the instance that does not lead fires once per crossing, by the leader", async () => {
    const { trader } = await traderWithAlert(other, { telegramMaxNotifications: 5 });
    // The leader's engine learns of the new alert through alerts.changed on Redis.
    await eventually(
      async () => leader.services.alertEngine.watchedCount,
      (n) => n === 1,
      "the leader to watch the alert made on the other instance",
    );
    feed.push({ source: "fx", key: "USDINR", price: 84, ts: crossingTime(0) });
    feed.push({ source: "cme", key: "GC", bid: 2000, ask: 2000.5, ts: crossingTime(0) });
    feed.push({ source: "mcx", key: "GOLD", bid: LOW_ASK - 20, ask: LOW_ASK, ts: crossingTime(0) });
    feed.push({
      source: "mcx",
      key: "GOLD",
      bid: HIGH_ASK - 20,
      ask: HIGH_ASK,
      ts: crossingTime(1),
    });
    feed.push({ source: "mcx", key: "GOLD", bid: LOW_ASK - 20, ask: LOW_ASK, ts: crossingTime(2) });
    // The other instance's hub got the leader's quotes through Redis.
    await eventually(
      async () => other.hub.snapshot().prices.mcx.GOLD?.timestamp,
      (ts) => ts === crossingTime(2),
      "the leader's last quote on the other instance",
    );
    await leader.services.alertEngine.idle();
    await eventually(
      async () => telegram.textsTo(CHAT).filter((t) => t.startsWith("🔔")).length,
      (n) => n === 2,
      "one message per crossing",
    );
    await settled(leader);
    expect(telegram.textsTo(CHAT).filter((t) => t.startsWith("🔔"))).toHaveLength(2);
    expect((await trader.get("/api/alerts")).body.alerts[0]).toMatchObject({
      telegramNotificationCount: 2,
    });
    expect(await signIn(leader, "trader", "trader-pass-1")).toBeDefined();
  });
});
