// Two instances on one real PostgreSQL and one real redis-server (docs/design.md §9), in this process:
// the leader's feed reaches the other instance's hub through Redis, and an alert made on the
// instance that does not lead is fired once, by the leader, after alerts.changed crossed Redis.
// Child processes and a kill -9 of the leader: cluster-failover.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProviderHealth } from "../src/feeds/providers/health.ts";
import { crossingTime } from "./crossing-replay.ts";
import { startCluster, type TestCluster } from "./fakes/cluster.ts";
import { pushGold, pushOpening } from "./fakes/crossing-feed.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, type TestServer } from "./server.ts";
import { CHAT, settled, signIn, traderWithAlert } from "./telegram-trader.ts";

let cluster: TestCluster;
let leader: TestServer;
let other: TestServer;

beforeAll(async () => {
  cluster = await startCluster();
  ({ leader, other } = cluster);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
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
    pushOpening(cluster.feed);
    pushGold(cluster.feed, 1);
    pushGold(cluster.feed, 2);
    // The other instance's hub got the leader's quotes through Redis.
    await eventually(
      async () => other.hub.snapshot().prices.mcx.GOLD?.timestamp,
      (ts) => ts === crossingTime(2),
      "the leader's last quote on the other instance",
    );
    await leader.services.alertEngine.idle();
    await eventually(
      async () => cluster.telegram.textsTo(CHAT).filter((t) => t.startsWith("🔔")).length,
      (n) => n === 2,
      "one message per crossing",
    );
    await settled(leader);
    expect(cluster.telegram.textsTo(CHAT).filter((t) => t.startsWith("🔔"))).toHaveLength(2);
    expect((await trader.get("/api/alerts")).body.alerts[0]).toMatchObject({
      telegramNotificationCount: 2,
    });
    expect(await signIn(leader, "trader", "trader-pass-1")).toBeDefined();
  });
});

describe("feed health across instances", () => {
  it("the instance that does not lead reports the leader's providers, not its own idle feed's", async () => {
    const kite: ProviderHealth = {
      name: "kite",
      kind: "kite",
      state: "live",
      delayed: false,
      keys: ["GOLD", "GOLD@far"],
      marketOpen: true,
      lastQuoteAt: Date.now(),
      lastQuoteAgeMs: 0,
      reconnects: 0,
      lastError: null,
      lastErrorAt: null,
      silenceMs: 10_000,
      contracts: { GOLD: "GOLD26FEBFUT" },
      missing: { "GOLD@far": "no far contract for GOLD in Kite's instruments list" },
    };
    cluster.feed.health = () => [kite];
    const providers = async () => (await health(other)).providers as ProviderHealth[];
    await eventually(
      providers,
      (p) => p[0]?.name === "kite",
      "the leader's providers on the other",
    );
    expect((await providers())[0]).toMatchObject({
      kind: "kite",
      contracts: { GOLD: "GOLD26FEBFUT" },
      missing: kite.missing,
    });
    // The leader reports its own feed, as before.
    expect((await health(leader)).providers[0].missing).toEqual(kite.missing);
  });
});

describe("instruments across instances", () => {
  it("one added on the instance that does not lead is listed and quoted on both, and leaves both when removed", async () => {
    const told: string[][] = [];
    cluster.feed.setInstruments = (instruments) => told.push(instruments.map((s) => s.key));
    const admin = await signIn(other, ADMIN.username, ADMIN.password);
    expect((await admin.post("/api/instruments", { key: "ZINC" })).status).toBe(201);
    // One session per user: the leader's admin is another account.
    const second = { username: "admin2", password: "admin2-pass-1", is_admin: true };
    expect((await admin.post("/api/auth/users", second)).status).toBe(200);
    const leaderAdmin = await signIn(leader, second.username, second.password);
    const listed = async (client: HttpClient) =>
      (await client.get("/api/instruments")).body.instruments.map((i: { key: string }) => i.key);
    // instruments.changed crossed Redis: the leader lists it and its feed was told to quote it.
    await eventually(
      () => listed(leaderAdmin),
      (keys) => keys.includes("ZINC"),
      "the leader to list ZINC",
    );
    expect(told.at(-1)).toContain("ZINC");
    // The leader's quotes of it reach the other instance's prices.
    let ts = Date.now();
    await eventually(
      async () => {
        ts++;
        cluster.feed.push({
          source: "mcx",
          key: "ZINC",
          bid: 265,
          ask: 265.1,
          ts,
          contract: "ZINC26FEBFUT",
        });
        return (await new HttpClient(other.url).get("/api/prices")).body.mcx.ZINC;
      },
      (zinc) => zinc?.contract === "ZINC26FEBFUT",
      "ZINC's price on the other instance",
    );
    expect((await new HttpClient(leader.url).get("/api/prices")).body.mcx.ZINC).toMatchObject({
      bid: 265,
      contract: "ZINC26FEBFUT",
    });

    expect((await leaderAdmin.delete("/api/instruments/ZINC")).status).toBe(204);
    await eventually(
      async () => (await new HttpClient(other.url).get("/api/prices")).body.mcx,
      (mcx) => !("ZINC" in mcx),
      "ZINC to leave the other instance's prices",
    );
    expect(await listed(admin)).not.toContain("ZINC");
    expect(told.at(-1)).not.toContain("ZINC");
  });
});

describe("spread definitions across instances", () => {
  it("one created on one instance is listed (and evaluated) by the other, and leaves both when deleted", async () => {
    const admin = await signIn(other, ADMIN.username, ADMIN.password);
    const third = { username: "admin3", password: "admin3-pass-1", is_admin: true };
    expect((await admin.post("/api/auth/users", third)).status).toBe(200);
    const leaderAdmin = await signIn(leader, third.username, third.password);
    const created = await admin.post("/api/spreads", {
      name: "Gold/silver",
      legs: [
        { name: "g", instrument: "GOLD" },
        { name: "s", instrument: "SILVER" },
      ],
      formula: "g / s",
      shared: true,
    });
    expect(created.status).toBe(201);
    const symbol = created.body.symbol as string;
    const listed = async (client: HttpClient) =>
      (await client.get("/api/spreads")).body.spreads.map((s: { symbol: string }) => s.symbol);
    // spreads.changed crossed Redis: the leader's registry reloaded from PostgreSQL.
    await eventually(
      () => listed(leaderAdmin),
      (symbols) => symbols.includes(symbol),
      `the leader to list ${symbol}`,
    );
    expect(leader.services.spreads.executable(`${symbol}_BUY`)?.spread.formula).toBe("g / s");
    expect((await leaderAdmin.delete(`/api/spreads/${created.body.id}`)).status).toBe(204);
    await eventually(
      () => listed(admin),
      (symbols) => !symbols.includes(symbol),
      `${symbol} to leave the other instance`,
    );
  });
});

describe("positions across instances", () => {
  it("one opened on the instance that does not lead reaches the leader's index and its position alerts (only the leader's), and leaves both when closed", async () => {
    const admin = await signIn(other, ADMIN.username, ADMIN.password);
    const owner = { username: "holder", password: "holder-pass-1" };
    expect((await admin.post("/api/auth/users", owner)).status).toBe(200);
    const holder = await signIn(other, owner.username, owner.password);
    const opened = await holder.post("/api/positions", {
      spread: "GC",
      side: "BUY",
      lots: 2,
      entry: 1000,
      targetInr: 5000,
    });
    expect(opened.status).toBe(201);
    const ids = (server: TestServer) =>
      server.services.positions.openPositionsOn("GC").map((p) => p.id);
    // positions.changed crossed Redis: each instance re-read the holder's positions (the one
    // that opened it hears its own news through Redis too, in no set order with the leader).
    for (const [server, which] of [
      [leader, "leader's"],
      [other, "opening instance's"],
    ] as const)
      await eventually(
        async () => ids(server),
        (list) => list.includes(opened.body.id),
        `the ${which} index to hold the position`,
      );
    // Its target is watched on the leader alone (position alerts are leader work).
    await eventually(
      async () => leader.services.positionAlerts.watchedCount,
      (n) => n === 1,
      "the leader's position alerts to watch its target",
    );
    expect(other.services.positionAlerts.watchedCount).toBe(0);
    const closed = await holder.post(`/api/positions/${opened.body.id}/close`, { price: 1010 });
    expect(closed.status).toBe(200);
    await eventually(
      async () => ids(leader),
      (list) => !list.includes(opened.body.id),
      "the position to leave the leader's index",
    );
    await eventually(
      async () => leader.services.positionAlerts.watchedCount,
      (n) => n === 0,
      "the leader's position alerts to let it go",
    );
  });
});

describe("statistics across a roll", () => {
  it("every instance reads a spread's window again from the new contract's past, not only the leader", {
    timeout: 120_000,
  }, async () => {
    // Twenty minutes of each contract's own past, fetched before: GOLD's February contract was
    // kept while it was GOLD@next. Relative to now, so the 20-day window holds them.
    await eventually(
      () => health(leader),
      (h) => h.instance.leader,
      "the leader to lead",
      30_000,
    );
    const t0 = Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000;
    const minutes = (close: number) =>
      Array.from({ length: 20 }, (_, i) => ({
        timestamp: t0 + i * 60_000,
        open: close,
        high: close,
        low: close,
        close: close + i,
      }));
    const { store } = leader.services;
    await store.contractCandles.write("GOLD", "GOLD26DECFUT", "kite", minutes(76_000));
    await store.contractCandles.write("GOLD@next", "GOLD27FEBFUT", "kite", minutes(76_800));
    await store.contractCandles.write("GC", "GCG27", "kite", minutes(2650));
    await store.instrumentCandles.save(
      minutes(84).map((m) => ({ symbol: "USDINR", timeframe: "1m", ...m, close: 84 })),
    );
    const quote = (gold: string) => {
      const ts = Date.now();
      cluster.feed.push({ source: "fx", key: "USDINR", price: 84, ts });
      cluster.feed.push({ source: "cme", key: "GC", bid: 2650, ask: 2651, ts, contract: "GCG27" });
      cluster.feed.push({
        source: "mcx",
        key: "GOLD",
        bid: 76_900,
        ask: 76_910,
        ts,
        contract: gold,
      });
    };
    // Whatever the other instance loaded before (GOLD's quotes named no contract), a roll onto
    // December then February is read again there each time.
    quote("GOLD26OCTFUT");
    await eventually(
      async () => other.hub.snapshot().prices.contracts?.GOLD?.contract,
      (c) => c === "GOLD26OCTFUT",
      "the other instance's hub on GOLD's October contract",
      30_000,
    );
    quote("GOLD26DECFUT");
    await eventually(
      async () => other.hub.snapshot().prices.contracts?.GOLD?.contract,
      (c) => c === "GOLD26DECFUT",
      "the other instance's hub on GOLD's December contract",
      30_000,
    );
    // The other instance's window is loaded on December's past before the roll.
    const viewer = await signIn(other, ADMIN.username, ADMIN.password);
    await eventually(
      async () => (await viewer.get("/api/spread-stats/GC_BUY")).body.coverage,
      (coverage) => coverage?.contracts?.GOLD === "GOLD26DECFUT",
      "the other instance's GC_BUY window on GOLD's December past",
      30_000,
    );
    // GOLD rolls to February: the leader's roll recorder sees it and tells every instance.
    quote("GOLD27FEBFUT");
    await eventually(
      async () => (await viewer.get("/api/spread-stats/GC_BUY")).body.coverage,
      (coverage) => coverage?.contracts?.GOLD === "GOLD27FEBFUT",
      "the other instance's GC_BUY window on GOLD's February past",
      30_000,
    );
    const { coverage } = (await viewer.get("/api/spread-stats/GC_BUY")).body;
    expect(coverage.contracts).toEqual({ GOLD: "GOLD27FEBFUT", GC: "GCG27" });
    expect(coverage.closes).toBeGreaterThanOrEqual(20);
  });
});
