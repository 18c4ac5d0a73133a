// A Redis outage loses the alert changes published meanwhile (the bus is at most once). The
// leader's alert engine reads every watched alert again when the bus is back, so an alert made
// on the instance that does not lead, while Redis was down, still fires, and one deleted
// meanwhile no longer does. Real PostgreSQL, a real
// redis-server killed and started again on its port, a fake Telegram.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type TestCluster } from "./fakes/cluster.ts";
import { pushGold, pushOpening } from "./fakes/crossing-feed.ts";
import { eventually } from "./fakes/wait.ts";
import { ADMIN } from "./server.ts";
import { alertTexts, CHAT, settled, signIn } from "./telegram-trader.ts";

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startCluster();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

const busStates = async () => [cluster.leader, cluster.other].map((s) => s.services.bus.state());

describe("the leader's alert engine across a Redis outage", () => {
  it("an alert made on the non-leader while Redis is down fires once Redis is back", async () => {
    const { leader, other, redis, feed, telegram } = cluster;
    const admin = await signIn(other, ADMIN.username, ADMIN.password);
    await admin.post("/api/auth/users", {
      username: "trader",
      password: "trader-pass-1",
      alerts_enabled: true,
    });
    const trader = await signIn(other, "trader", "trader-pass-1");
    expect((await trader.post("/api/telegram/connect", { chatId: CHAT })).status).toBe(200);
    const doomed = await trader.post("/api/alerts", {
      commodityType: "GC_BUY",
      threshold: -10,
      telegramNotify: true,
    });
    await eventually(
      async () => leader.services.alertEngine.watchedCount,
      (n) => n === 1,
      "the leader to watch the alert made before the outage",
    );

    await redis.kill();
    await eventually(busStates, (s) => s.every((state) => state !== "connected"), "Redis gone");
    const created = await trader.post("/api/alerts", {
      commodityType: "GC_BUY",
      threshold: 0,
      telegramNotify: true,
      telegramMaxNotifications: 5,
    });
    expect(created.status).toBe(200);
    // Deleted meanwhile: the reload drops it from the leader's index (the store would refuse its
    // firings anyway), so only the alert at 0 sends.
    expect((await trader.delete(`/api/alerts/${doomed.body.alert.id}`)).status).toBe(200);
    expect(leader.services.alertEngine.watchedCount).toBe(1);

    await redis.start(redis.port);
    await eventually(
      busStates,
      (s) => s.every((state) => state === "connected"),
      "Redis back",
      20_000,
    );
    // The reload is queued the moment the leader's bus says connected; let it finish.
    await leader.services.alertEngine.idle();

    pushOpening(feed);
    pushGold(feed, 1);
    pushGold(feed, 2);
    await eventually(
      async () => other.hub.snapshot().prices.mcx.GOLD?.ask,
      (ask) => ask !== undefined,
      "the leader's quotes on the other instance",
    );
    await eventually(
      async () => alertTexts(telegram).length,
      (n) => n === 2,
      "one message per crossing",
    );
    await settled(leader);
    expect(alertTexts(telegram).map((t) => t.split("\n")[3])).toEqual([
      "Notification 1 of 5",
      "Notification 2 of 5",
    ]);
  });
});
