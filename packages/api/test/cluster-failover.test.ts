// Failover as an operator would see it (docs/operations.md "Run several instances", docs/design.md
// §9): two real server processes on one real PostgreSQL and one real redis-server, both playing the
// same crossing replay, a fake Telegram on loopback. The leader is killed with SIGKILL mid-replay;
// the other must lead, keep its browsers' stream going, and the trader must get exactly one message
// per crossing up to the alert's Telegram limit: none twice, none invented, none lost.
import { mkdtempSync, rmSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatIstTimestamp } from "@spreadwatch/core";
import { openStore, type Store } from "@spreadwatch/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MarketSnapshot } from "../src/market/hub.ts";
import type { MarketStreamMessage } from "../src/stream/delta.ts";
import { crossingReplay, crossingTime } from "./crossing-replay.ts";
import { ProcessCluster } from "./fakes/process-cluster.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { manualFeed, startTestServer } from "./server.ts";
import { applyMessage, dataEvents } from "./stream-state.ts";
import { alertTexts, traderWithAlert } from "./telegram-trader.ts";

/** The alert's Telegram limit (the most allowed): reached only after the kill, by the new leader. */
const LIMIT = 5;
const CROSSINGS = 30;
/**
 * Replay minutes per wall second: one crossing every 4 s, so the kill lands between two. At one
 * every 2 s a machine under a CPU hog saw the outbox quiet only after a had sent all five.
 */
const SPEED = 15;
/** The promise: another instance leads within 10 s of the leader's death. */
const TAKEOVER_DEADLINE_MS = 10_000;

const cluster = new ProcessCluster();
const telegram = cluster.telegram;
let store: Store;
const dir = mkdtempSync(join(tmpdir(), "spreadwatch-failover-"));
let replayEnv: Record<string, string>;

/** A browser's `market.onSnapshot` stream: the state its messages build, and how many came. */
function openStream(url: string) {
  let text = "";
  const request = get(`${url}/api/trpc/market.onSnapshot`, { agent: false }, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      text += chunk;
    });
    res.on("error", () => {});
  });
  request.on("error", () => {});
  const messages = () => dataEvents(text).map((json) => JSON.parse(json) as MarketStreamMessage);
  return {
    count: () => messages().length,
    state: () => messages().reduce<MarketSnapshot | undefined>(applyMessage, undefined),
    close: () => request.destroy(),
  };
}

/** Every outbox row delivered: nothing claimed, nothing queued, so a kill now loses nothing. */
async function outboxQuiet(): Promise<number> {
  const rows = await store.outbox.list();
  if (rows.some((m) => m.sentAt === null && m.failedAt === null)) return -1;
  return rows.length;
}

beforeAll(async () => {
  await cluster.start();
  // The trader and the alert exist before any replay plays: made through an edge instance in
  // this process (it never leads, so it plays nothing and sends nothing).
  const setup = await startTestServer({
    env: { ...cluster.env, INSTANCE_ROLE: "edge", INSTANCE_ID: "setup" },
    feed: manualFeed(),
  });
  await traderWithAlert(setup, { telegramMaxNotifications: LIMIT });
  await setup.stop();
  store = await openStore({ kind: "postgres", url: cluster.databaseUrl });
  replayEnv = {
    FEED: "replay",
    REPLAY_FILE: crossingReplay(dir, CROSSINGS),
    REPLAY_SPEED: String(SPEED),
  };
}, 120_000);

afterAll(async () => {
  await store?.close();
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("kill -9 of the leader", () => {
  it("the other instance leads, its stream goes on, and each crossing is sent exactly once", async () => {
    const a = await cluster.startInstance("a", replayEnv);
    await cluster.leads(a, "a to lead", 30_000);
    const b = await cluster.startInstance("b", replayEnv);

    // Exactly one leads, and both are on the bus and the database.
    const [ha, hb] = await Promise.all([cluster.health(a), cluster.health(b)]);
    expect([ha.instance, hb.instance]).toEqual([
      { id: "a", leader: true },
      { id: "b", leader: false },
    ]);
    expect(hb).toMatchObject({ bus: { state: "connected" }, database: { state: "up" } });

    // Sessions are the database's: a cookie from A works on B, and a login on B ends A's.
    const onA = new HttpClient(a.url);
    expect(
      (await onA.post("/api/auth/login", { username: "trader", password: "trader-pass-1" })).status,
    ).toBe(200);
    const sameCookieOnB = new HttpClient(b.url);
    const cookie = { headers: { cookie: onA.cookieHeader } };
    const status = await sameCookieOnB.request("GET", "/api/auth/status", cookie);
    expect(status.body).toMatchObject({ status: "authenticated", user: { username: "trader" } });
    const onB = new HttpClient(b.url);
    const second = await onB.post("/api/auth/login", {
      username: "trader",
      password: "trader-pass-1",
    });
    expect(second.body).toMatchObject({ another_session_logged_out: true });
    expect((await onA.get("/api/auth/status")).body).toMatchObject({ status: "session_expired" });
    expect((await onB.get("/api/auth/status")).body).toMatchObject({ status: "authenticated" });

    // A browser on B, the instance that survives.
    const stream = openStream(b.url);
    try {
      // Mid-replay, between two crossings: some messages out, none in flight.
      await eventually(
        outboxQuiet,
        (sent) => sent >= 2,
        "two alert messages delivered by a",
        30_000,
      );
      const sentByA = alertTexts(telegram).length;
      expect(sentByA).toBeLessThan(LIMIT);
      await eventually(
        async () => stream.state()?.prices.mcx.GOLD?.timestamp,
        (ts) => ts !== undefined,
        "b's stream to carry a's quotes",
      );

      const killedAt = Date.now();
      await cluster.kill(a);
      const framesAtKill = stream.count();

      await cluster.leads(b, "b to lead after a was killed", TAKEOVER_DEADLINE_MS);
      const takeoverMs = Date.now() - killedAt;
      console.log(`failover: b leads ${takeoverMs} ms after kill -9 of the leader`);

      // B's stream keeps carrying quotes, now from B's own feed through Redis.
      await eventually(
        async () => stream.count(),
        (n) => n > framesAtKill + 3,
        "b's stream to carry quotes after the kill",
        // Four replay steps, one every 4 s, on top of the takeover.
        30_000,
      );

      // The limit is reached by b: exactly one message per crossing, crossing k as the k-th.
      // A crossing can fire on a between the quiet check and the kill: its row, claimed by a,
      // comes back to b only when a's 15 s lease runs out, so the wait allows that lease too.
      await eventually(
        async () => alertTexts(telegram).length,
        (n) => n >= LIMIT,
        "the Telegram limit to be reached",
        60_000,
      );
      await eventually(outboxQuiet, (n) => n >= 0, "the outbox to settle", 15_000);
      const times = alertTexts(telegram).map((text) => text.split("\n")[2]);
      const expected = Array.from(
        { length: LIMIT },
        (_, i) => `Time: ${formatIstTimestamp(crossingTime(i + 1))}`,
      );
      expect(times).toEqual(expected);
      expect(alertTexts(telegram).map((text) => text.split("\n")[3])).toEqual(
        Array.from(
          { length: LIMIT },
          (_, i) =>
            `Notification ${i + 1} of ${LIMIT}${i + 1 === LIMIT ? " — alert now disabled" : ""}`,
        ),
      );
      expect(await cluster.health(b)).toMatchObject({ instance: { id: "b", leader: true } });
    } finally {
      stream.close();
    }
  }, 180_000);
});
