// Kite's margin calculator and contract note are asked about a position at most once a minute
// across every instance on one store (docs/operations.md "Margin of a position"): two margin
// sources on one real SQLite store with a clock the tests move, then two servers on one real
// PostgreSQL and redis-server, each with a fake Kite on loopback.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultCostRates, defaultMarginRates, shippedInstrument } from "@spreadwatch/core";
import { openStore, type Store } from "@spreadwatch/db";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type KiteSessions, kiteSessionsIn } from "../src/feeds/providers/kite/session.ts";
import { createMarginSource, type MarginSourceOptions } from "../src/positions/margin-source.ts";
import { startCluster, type TestCluster } from "./fakes/cluster.ts";
import { FakeKite, KITE_KEY, KITE_SECRET } from "./fakes/fake-kite.ts";
import {
  APR,
  calendar,
  FEB,
  KITE_TOKEN,
  REFRESH_WAIT,
  saveKiteLogin,
} from "./fakes/kite-margin-fixture.ts";
import { addTrader, signIn } from "./fakes/signed-in-trader.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN } from "./server.ts";

const TOKEN = KITE_TOKEN;
const WAIT = REFRESH_WAIT;

let kite: FakeKite;
let dir: string;
let store: Store;
let sessions: KiteSessions;
/** Every instance's clock: tests move it across the minute Kite's answer is kept. */
let clock: number;

/**
 * Long enough for a loaded machine: with 300 ms attempts, under a CPU hog the fake Kite's answer
 * came late, was asked for again, and a test counting Kite's requests met three (as in
 * positions-margin.test.ts). No test here has a Kite that never answers.
 */
const CALL = { attempts: 2, attemptTimeoutMs: 10_000, deadlineMs: 25_000, initialDelayMs: 10 };

/** An instance's margin source on the shared store (or `answers` standing in for it). */
function instance(overrides: Partial<MarginSourceOptions> = {}) {
  return createMarginSource({
    rates: defaultMarginRates(),
    costRates: defaultCostRates(),
    specOf: (key) => shippedInstrument(key),
    kite: {
      settings: kite.settings(),
      sessions,
    },
    now: () => clock,
    call: CALL,
    answers: store.keyValues,
    ...overrides,
  });
}

/** A clock of its own that sleeping moves, for waits that are counted, not timed. */
function countedPace() {
  const pace = {
    slept: 0,
    now: () => pace.slept,
    sleep: async (ms: number) => {
      pace.slept += ms;
    },
  };
  return pace;
}

function login() {
  return saveKiteLogin(kite, sessions, clock, TOKEN, 24 * 3_600_000);
}

describe("two instances' margin sources on one store", () => {
  beforeEach(async () => {
    kite = await new FakeKite().start();
    dir = mkdtempSync(join(tmpdir(), "positions-margin-cluster-"));
    store = await openStore({ kind: "sqlite", file: join(dir, "spreadwatch.db") });
    sessions = kiteSessionsIn(store);
    clock = Date.parse("2026-01-05T05:00:00Z");
  });

  afterEach(async () => {
    await kite.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("ask Kite once a minute per position between them, and share the answer with its time", async () => {
    await login();
    const [a, b] = [instance(), instance()];
    // Both at once, neither with an answer: one asks Kite, the other waits for its answer.
    const first = await Promise.all([a.marginFor(calendar, 84.5), b.marginFor(calendar, 84.5)]);
    expect(first[0]?.source).toBe("kite");
    expect(first[1]).toEqual(first[0]);
    const costs = await Promise.all([a.brokerCosts(calendar), b.brokerCosts(calendar)]);
    expect(costs[0]?.perLotInr).toBeGreaterThan(0);
    expect(costs[1]).toEqual(costs[0]);
    clock += 30_000;
    for (const source of [b, a, b]) {
      expect(await source.marginFor(calendar, 84.5)).toEqual(first[0]);
      expect(await source.brokerCosts(calendar)).toEqual(costs[0]);
    }
    expect(kite.marginRequests).toHaveLength(1);
    expect(kite.chargeRequests).toHaveLength(1);

    // After the minute: both serve the last answer at once while one of them asks Kite again.
    clock += 30_000;
    const refreshedAt = clock;
    const stale = await Promise.all([b.marginFor(calendar, 84.5), a.marginFor(calendar, 84.5)]);
    expect(stale).toEqual([first[0], first[0]]);
    await kite.until(() => kite.marginRequests.length === 2, "the refresh");
    for (const source of [a, b])
      await vi.waitFor(
        async () => expect((await source.marginFor(calendar, 84.5))?.at).toBe(refreshedAt),
        WAIT,
      );
    expect(kite.marginRequests).toHaveLength(2);
  });

  it("share a failing Kite's answer: no instance asks again within the minute", async () => {
    await login();
    kite.validTokens.delete(TOKEN);
    const pace = countedPace();
    const [a, b] = [instance({ pace }), instance({ pace })];
    expect((await a.marginFor(calendar, 84.5))?.source).toBe("configured");
    expect(kite.marginRequests).toHaveLength(1);
    clock += 59_999;
    expect((await b.marginFor(calendar, 84.5))?.source).toBe("configured");
    expect(await b.brokerCosts(calendar)).toBeUndefined();
    expect(await a.brokerCosts(calendar)).toBeUndefined();
    expect(kite.marginRequests).toHaveLength(1);
    expect(kite.chargeRequests).toHaveLength(1);
    // The failure was in the store: nobody waited for another instance's answer.
    expect(pace.slept).toBe(0);
    // The minute over and the token good again: Kite's figure comes back, asked once.
    kite.validTokens.add(TOKEN);
    clock += 1;
    for (const source of [b, a])
      await vi.waitFor(
        async () => expect((await source.marginFor(calendar, 84.5))?.source).toBe("kite"),
        WAIT,
      );
    expect(kite.marginRequests).toHaveLength(2);
  });

  it("an instance that claimed a position and died before storing Kite's answer holds it up for its minute only", async () => {
    await login();
    // It claims, asks Kite, and is gone before the answer reaches the store.
    const died = instance({
      answers: {
        ...store.keyValues,
        set: () => Promise.reject(new Error("the instance is gone")),
      },
    });
    expect((await died.marginFor(calendar, 84.5))?.source).toBe("kite");
    expect(kite.marginRequests).toHaveLength(1);
    // Another waits for the answer (as long as a Kite call may take), then shows the configured
    // figure without asking Kite: the claim is someone's for the minute.
    const pace = countedPace();
    const alive = instance({ pace });
    clock += 1_000;
    expect((await alive.marginFor(calendar, 84.5))?.source).toBe("configured");
    expect(pace.slept).toBeGreaterThanOrEqual(CALL.deadlineMs);
    expect(kite.marginRequests).toHaveLength(1);
    // A minute after the claim, it is stale: the live instance claims the position and asks.
    clock += 59_000;
    await vi.waitFor(
      async () =>
        expect(await alive.marginFor(calendar, 84.5)).toMatchObject({ source: "kite", at: clock }),
      WAIT,
    );
    expect(kite.marginRequests).toHaveLength(2);
  });

  it("serve nothing from a stored answer that is not one (another release's, a hand edit)", async () => {
    await login();
    await instance().marginFor(calendar, 84.5);
    const key = `kite.margins.answer.${calendar.id}|${FEB}:BUY:2,${APR}:SELL:2`;
    expect(await store.keyValues.get(key)).toMatchObject({ at: clock });
    for (const bad of [{ at: "soon", ok: {} }, { at: clock }, "text", null]) {
      await store.keyValues.set(key, bad, clock);
      // Another instance reads no answer, and the claim is the first one's for the minute.
      const margin = await instance({ pace: countedPace() }).marginFor(calendar, 84.5);
      expect(margin?.source).toBe("configured");
    }
    expect(kite.marginRequests).toHaveLength(1);
  });

  it("keep in the store only the positions asked about in the last five minutes", async () => {
    await login();
    const a = instance();
    for (const id of [1, 2, 3]) await a.marginFor({ ...calendar, id }, 84.5);
    // Past the five minutes an answer is served at most: the next claim clears theirs away.
    clock += 5 * 60_000 + 1;
    await instance().marginFor({ ...calendar, id: 4 }, 84.5);
    // What is left under the margins' keys: position 4's claim and answer.
    expect(await store.keyValues.deleteSetBefore("kite.margins.", Number.POSITIVE_INFINITY)).toBe(
      2,
    );
  });
});

describe("two servers on one PostgreSQL, behind a load balancer", () => {
  let cluster: TestCluster | undefined;

  afterEach(async () => {
    await cluster?.stop();
    await kite.stop();
  });

  it("a position read through both within the minute asks Kite's calculator and contract note once", async () => {
    kite = await new FakeKite().start();
    cluster = await startCluster({
      KITE_API_KEY: KITE_KEY,
      KITE_API_SECRET: KITE_SECRET,
      KITE_API_ROOT: kite.url,
      KITE_WS_ROOT: kite.wsUrl,
    });
    const { leader, other, feed } = cluster;
    // The leader starts its feed a moment after it leads: pushed until it is heard, and its
    // quotes reach the other instance through Redis.
    const push = () => {
      const ts = Date.now();
      feed.push({ source: "fx", key: "USDINR", price: 84, ts });
      feed.push({ source: "cme", key: "GC", bid: 2650, ask: 2651, ts, contract: "GCG26" });
      const gold = { bid: 78_000, ask: 78_010, contract: FEB, expiry: "2099-02-05" };
      feed.push({ source: "mcx", key: "GOLD", ts, ...gold });
    };
    for (const server of [leader, other])
      await eventually(
        async () => {
          push();
          return (await fetch(`${server.url}/api/calculations`)).json();
        },
        (body) => (body as Record<string, unknown>).GC_BUY !== undefined,
        `GC_BUY on ${server.url}`,
      );
    const admin = await signIn(leader, ADMIN.username, ADMIN.password);
    const onLeader = await addTrader(leader, admin, "trader");
    // The same browser (one session a user), its requests sent to either instance.
    const onOther = {
      get: (path: string) =>
        new HttpClient(other.url).request("GET", path, {
          headers: { cookie: onLeader.cookieHeader },
        }),
    };
    const opened = await onLeader.post("/api/positions", { spread: "GC", side: "BUY", lots: 2 });
    expect(opened.status).toBe(201);
    await eventually(
      async () => (await onOther.get("/api/positions")).body.positions,
      (positions) => positions.length === 1,
      "the position on the other instance",
    );
    expect(kite.marginRequests).toHaveLength(0);

    // The admin's login of the day, as /api/kite/callback stores it for every instance.
    await kiteSessionsIn(leader.services.store).save({
      accessToken: TOKEN,
      userId: "AB1234",
      savedAt: Date.now(),
      expiresAt: Date.now() + 3_600_000,
    });
    kite.validTokens.add(TOKEN);
    // A load balancer's spread of one page's polls: both at once, then one after another.
    const views = [
      ...(await Promise.all([onLeader.get("/api/positions"), onOther.get("/api/positions")])),
    ];
    for (const client of [onOther, onLeader, onOther, onLeader])
      views.push(await client.get("/api/positions"));
    const [first] = views.map((r) => r.body.positions[0]);
    expect(first.margin.source).toBe("kite");
    expect(first.brokerCosts.perLotInr).toBeGreaterThan(0);
    for (const view of views.map((r) => r.body.positions[0])) {
      expect(view.margin).toEqual(first.margin);
      expect(view.brokerCosts).toEqual(first.brokerCosts);
    }
    expect(kite.marginRequests).toHaveLength(1);
    expect(kite.chargeRequests).toHaveLength(1);
  });
});
