// The Kite access token lives in the database (key kite.session), so the admin's daily login on
// any instance feeds the Kite connection of whichever instance leads. Real PostgreSQL and
// redis-server, a fake Kite on loopback.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, startPostgres } from "@spreadwatch/db/testing/postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { START_SCRIPT } from "../../../scripts/production-build.mjs";
import { acceptLoginOfTheDay, FakeKite, listGoldFuture } from "./fakes/fake-kite.ts";
import { goldFebQuote } from "./fakes/kite-packets.ts";
import { RedisServer } from "./fakes/redis-server.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";
import { processEnv } from "./test-env.ts";

let postgres: Awaited<ReturnType<typeof startPostgres>>;
let database: Awaited<ReturnType<typeof createDatabase>>;
let redis: RedisServer;
let kite: FakeKite;
let edge: TestServer;
let leader: TestServer;
const dir = mkdtempSync(join(tmpdir(), "spreadwatch-cluster-kite-"));

beforeAll(async () => {
  [postgres, redis, kite] = await Promise.all([
    startPostgres(),
    new RedisServer().start(),
    new FakeKite().start(),
  ]);
  database = await createDatabase(postgres.url);
  acceptLoginOfTheDay(kite);
  listGoldFuture(kite);
  const marketData = join(dir, "market-data.json");
  writeFileSync(
    marketData,
    JSON.stringify({
      providers: {
        kite: { type: "kite", keys: ["GOLD"], hours: "always", tokenCheckSeconds: 0.05 },
      },
    }),
  );
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    SESSION_SECRET: "a-session-secret-shared-by-both-servers",
    ...kite.env(),
  };
  // The admin's instance never leads: whatever Kite connection there is, is the other's.
  edge = await startTestServer({
    env: { ...env, INSTANCE_ID: "edge", INSTANCE_ROLE: "edge" },
    feed: manualFeed(),
  });
  leader = await startTestServer({
    env: { ...env, INSTANCE_ID: "leader", FEED: "composite", MARKET_DATA_CONFIG: marketData },
  });
}, 120_000);

afterAll(async () => {
  await leader?.stop();
  await edge?.stop();
  await kite?.stop();
  await redis?.dispose();
  await database?.drop();
  postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the Kite token in the database", () => {
  it("a login started on one instance, whichever gets Kite's redirect, feeds the leader's Kite connection", async () => {
    await eventually(
      async () => (await new HttpClient(leader.url).get("/api/health")).body,
      (h) => h.instance?.leader === true && h.providers?.[0]?.state === "not_configured",
      "the leader's Kite provider to wait for a token",
    );
    expect(kite.connections).toHaveLength(0);

    const admin = new HttpClient(edge.url);
    expect((await admin.post("/api/auth/login", ADMIN)).status).toBe(200);
    const login = await admin.get("/api/kite/login");
    const redirect = new URL(login.headers.location as string).searchParams.get("redirect_params");
    const state = new URLSearchParams(redirect ?? "").get("state");
    // No sticky sessions: Kite's redirect reaches the other instance, with the same cookie.
    const callbackPath = `/api/kite/callback?request_token=req-good&state=${state}`;
    const sameBrowserOnLeader = new HttpClient(leader.url);
    const cookie = { headers: { cookie: admin.cookieHeader } };
    const callback = await sameBrowserOnLeader.request("GET", callbackPath, cookie);
    expect(callback.headers.location).toBe("/admin?kite=connected");
    // The state was good once, on every instance.
    const replayed = await admin.get(callbackPath);
    expect(replayed.status).toBe(400);
    expect(replayed.body.error).toMatch(/start again from \/api\/kite\/login/);

    // The leader connects with the token saved in the database.
    await kite.until(() => (kite.latest?.messages.length ?? 0) >= 2, "the leader's subscription");
    expect(kite.connections.map((c) => c.accessToken)).toEqual(["access-of-the-day"]);
    kite.send(goldFebQuote());
    // Its quotes reach the admin's instance through Redis.
    const prices = await eventually(
      () => admin.get("/api/prices"),
      (r) => r.body.mcx.GOLD !== undefined,
      "GOLD on the edge instance",
    );
    expect(prices.body.mcx.GOLD).toMatchObject({ bid: 76500, ask: 76502 });
    expect((await admin.get("/api/kite/status")).body).toMatchObject({ session: "valid" });
  });

  it("the kite CLI reads the same session from PostgreSQL", () => {
    const run = spawnSync(process.execPath, [START_SCRIPT, "kite", "status"], {
      env: {
        ...processEnv(),
        DATA_DIR: dir,
        DATABASE_URL: database.url,
      },
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^Kite session of AB1234: valid until /);
  });
});
