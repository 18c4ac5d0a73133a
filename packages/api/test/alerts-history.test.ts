import { join } from "node:path";
import { openDatabase, type SeededFiring, seedFirings } from "@spreadwatch/db/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DATABASE_FILE } from "../src/server.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer;
let trader: HttpClient;
let other: HttpClient;

async function signIn(username: string, password: string) {
  const client = new HttpClient(server.url);
  expect((await client.post("/api/auth/login", { username, password })).status).toBe(200);
  return client;
}

async function userId(username: string): Promise<number> {
  const db = openDatabase(join(server.dataDir, DATABASE_FILE));
  try {
    return (
      db.sqlite.prepare("SELECT id FROM users WHERE username = ?").get(username) as {
        id: number;
      }
    ).id;
  } finally {
    db.close();
  }
}

/** A server firing with its outbox rows, written beside the running server. */
function insertServerFiring(f: SeededFiring): number {
  return seedFirings(join(server.dataDir, DATABASE_FILE), [f])[0] as number;
}

// One server for the file: every test signs in users of its own (their history, alerts and ids
// are theirs alone), so no test sees another's rows and none needs a fresh database.
let admin: HttpClient;
let round = 0;
/** This test's users: `trader` and `other` of its own. */
let names = { trader: "", other: "" };
beforeAll(async () => {
  server = await startTestServer({ feed: manualFeed() });
  admin = await signIn(ADMIN.username, ADMIN.password);
});
afterAll(() => server.stop());
beforeEach(async () => {
  round++;
  names = { trader: `trader${round}`, other: `other${round}` };
  for (const username of Object.values(names))
    expect(
      (
        await admin.post("/api/auth/users", {
          username,
          password: `${username}-pass-1`,
          alerts_enabled: true,
        })
      ).status,
    ).toBe(200);
  trader = await signIn(names.trader, `${names.trader}-pass-1`);
  other = await signIn(names.other, `${names.other}-pass-1`);
});

async function createAlert(client: HttpClient, body: Record<string, unknown> = {}) {
  const res = await client.post("/api/alerts", {
    commodityType: "GC_BUY",
    threshold: 100,
    ...body,
  });
  expect(res.status).toBe(200);
  return res.body.alert as { id: number };
}

describe("GET /api/alerts/history", () => {
  it("pages newest first with before, showing channel states and attempts from the outbox", async () => {
    const alert = await createAlert(trader);
    const uid = await userId(names.trader);
    const base = { userId: uid, alertId: alert.id };
    const ids = [1000, 2000, 3000, 4000, 5000].map((firedAt) =>
      insertServerFiring({ ...base, firedAt }),
    );
    const withChannels = insertServerFiring({
      ...base,
      firedAt: 6000,
      metric: "zscore",
      value: 2.5,
      outbox: [
        ["telegram", 0, "sent"],
        ["webhook", 3, "pending"],
      ],
    });
    const failed = insertServerFiring({
      ...base,
      firedAt: 500,
      outbox: [["webhook", 9, "failed"]],
    });
    insertServerFiring({ ...base, firedAt: 700, state: "held", note: "MCX leg stale" });

    const first = await trader.get("/api/alerts/history?limit=3");
    expect(first.status).toBe(200);
    expect(first.body.entries.map((e: { id: number }) => e.id)).toEqual([
      withChannels,
      ids[4],
      ids[3],
    ]);
    expect(first.body.entries[0]).toEqual({
      id: withChannels,
      alertId: alert.id,
      symbol: "GC_BUY",
      metric: "zscore",
      value: 2.5,
      threshold: 100,
      direction: "above",
      firedAt: 6000,
      state: "fired",
      source: "server",
      note: null,
      channels: [
        { channel: "telegram", state: "sent", attempts: 1 },
        { channel: "webhook", state: "pending", attempts: 3 },
      ],
    });
    const last = first.body.entries.at(-1).firedAt;
    const second = await trader.get(`/api/alerts/history?limit=3&before=${last}`);
    expect(second.body.entries.map((e: { firedAt: number }) => e.firedAt)).toEqual([
      3000, 2000, 1000,
    ]);
    const third = await trader.get("/api/alerts/history?limit=3&before=1000");
    expect(third.body.entries).toEqual([
      expect.objectContaining({ state: "held", note: "MCX leg stale", channels: [] }),
      expect.objectContaining({
        id: failed,
        channels: [{ channel: "webhook", state: "failed", attempts: 10 }],
      }),
    ]);
    // Default limit 50: everything.
    expect((await trader.get("/api/alerts/history")).body.entries).toHaveLength(8);
  });

  it("never splits entries fired by one quote across two pages (a storm would lose some)", async () => {
    const alert = await createAlert(trader);
    const base = { userId: await userId(names.trader), alertId: alert.id };
    insertServerFiring({ ...base, firedAt: 9000 });
    // One quote fired five alerts at once: the same firedAt.
    const storm = [1, 2, 3, 4, 5].map(() => insertServerFiring({ ...base, firedAt: 8000 }));
    insertServerFiring({ ...base, firedAt: 7000 });

    const seen: number[] = [];
    let before: number | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const query = before === undefined ? "limit=3" : `limit=3&before=${before}`;
      const entries = (await trader.get(`/api/alerts/history?${query}`)).body.entries as {
        id: number;
        firedAt: number;
      }[];
      if (entries.length === 0) break;
      seen.push(...entries.map((e) => e.id));
      before = entries.at(-1)?.firedAt;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect(seen).toEqual(expect.arrayContaining(storm));
  });

  it("never shows another user's entries", async () => {
    const mine = await createAlert(trader);
    const theirs = await createAlert(other);
    insertServerFiring({ userId: await userId(names.trader), alertId: mine.id, firedAt: 10 });
    insertServerFiring({ userId: await userId(names.other), alertId: theirs.id, firedAt: 20 });
    const seen = (await trader.get("/api/alerts/history")).body.entries;
    expect(seen.map((e: { alertId: number }) => e.alertId)).toEqual([mine.id]);
    const theirsSeen = (await other.get("/api/alerts/history")).body.entries;
    expect(theirsSeen.map((e: { alertId: number }) => e.alertId)).toEqual([theirs.id]);
    expect((await new HttpClient(server.url).get("/api/alerts/history")).status).toBe(401);
  });

  it("keeps a deleted alert's history with alertId null", async () => {
    const alert = await createAlert(trader);
    insertServerFiring({
      userId: await userId(names.trader),
      alertId: alert.id,
      firedAt: 10,
      outbox: [["telegram", 1, "sent"]],
    });
    expect((await trader.delete(`/api/alerts/${alert.id}`)).status).toBe(200);
    expect((await trader.get("/api/alerts/history")).body.entries).toEqual([
      expect.objectContaining({
        alertId: null,
        symbol: "GC_BUY",
        channels: [{ channel: "telegram", state: "sent", attempts: 2 }],
      }),
    ]);
  });

  it("answers 400 with a sentence for bad limit or before", async () => {
    for (const query of [
      "limit=0",
      "limit=201",
      "limit=abc",
      "limit=1.5",
      "limit=",
      "before=-1",
      "before=soon",
      "before=",
      "before=1e400",
    ]) {
      const res = await trader.get(`/api/alerts/history?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toMatch(/limit|before/);
    }
    expect((await trader.get("/api/alerts/history?limit=200")).status).toBe(200);
  });
});

describe("browser firings", () => {
  it("the trigger with the fired value appears in History as a browser firing", async () => {
    const alert = await createAlert(trader, { metric: "zscore", threshold: 2 });
    const res = await trader.post(`/api/alerts/${alert.id}/trigger`, {
      value: 2.31,
      metric: "zscore",
      direction: "above",
    });
    expect(res.status).toBe(200);
    expect(res.body.alert.notificationCount).toBe(1);
    // The spec's bare trigger still counts, but says nothing for the History.
    expect((await trader.post(`/api/alerts/${alert.id}/trigger`)).status).toBe(200);
    const entries = (await trader.get("/api/alerts/history")).body.entries;
    expect(entries).toEqual([
      expect.objectContaining({
        alertId: alert.id,
        symbol: "GC_BUY",
        metric: "zscore",
        value: 2.31,
        threshold: 2,
        direction: "above",
        source: "browser",
        channels: [{ channel: "browser", state: "sent", attempts: 1 }],
      }),
    ]);
  });

  it("refuses a malformed firing and stores nothing", async () => {
    const alert = await createAlert(trader);
    for (const body of [
      { value: "high", metric: "spread", direction: "above" },
      { value: 1e12, metric: "spread", direction: "above" },
      { value: 1, metric: "median", direction: "above" },
      { value: 1, metric: "spread", direction: "sideways" },
      { value: 1 },
    ]) {
      const res = await trader.post(`/api/alerts/${alert.id}/trigger`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const infinite = await trader.raw(
      "POST",
      `/api/alerts/${alert.id}/trigger`,
      '{"value":1e400,"metric":"spread","direction":"above"}',
    );
    expect(infinite.status).toBe(400);
    expect((await trader.get("/api/alerts")).body.alerts[0].notificationCount).toBe(0);
    expect((await trader.get("/api/alerts/history")).body.entries).toEqual([]);
    // Another user's alert: 404, nothing written for anyone.
    const res = await other.post(`/api/alerts/${alert.id}/trigger`, {
      value: 1,
      metric: "spread",
      direction: "above",
    });
    expect(res.status).toBe(404);
    expect((await trader.get("/api/alerts/history")).body.entries).toEqual([]);
  });
});

describe("alert metric, hysteresis and webhook fields", () => {
  it("creates and updates them, and shows the disabled reason until re-enabled", async () => {
    const created = await trader.post("/api/alerts", {
      commodityType: "SI_BUY",
      threshold: 95,
      metric: "percentile",
      hysteresis: 5,
      webhookNotify: true,
    });
    expect(created.body.alert).toMatchObject({
      metric: "percentile",
      hysteresis: 5,
      webhookNotify: true,
      disabledReason: null,
    });
    const id = created.body.alert.id;
    const edited = await trader.put(`/api/alerts/${id}`, {
      metric: "zscore",
      threshold: -2.5,
      hysteresis: null,
    });
    expect(edited.body.alert).toMatchObject({
      metric: "zscore",
      threshold: -2.5,
      hysteresis: null,
    });

    const db = openDatabase(join(server.dataDir, DATABASE_FILE));
    db.sqlite
      .prepare("UPDATE alerts SET enabled = 0, disabled_reason = ? WHERE id = ?")
      .run("Telegram limit 3 of 3 reached at 14:02 IST", id);
    db.close();
    expect((await trader.get("/api/alerts")).body.alerts[0]).toMatchObject({
      enabled: false,
      disabledReason: "Telegram limit 3 of 3 reached at 14:02 IST",
    });
    const enabled = await trader.put(`/api/alerts/${id}`, { enabled: true });
    expect(enabled.body.alert).toMatchObject({ enabled: true, disabledReason: null });
  });

  it("refuses hostile values with a clear 400 and stores nothing", async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ metric: "median" }, /metric must be one of spread, zscore, percentile/],
      [{ metric: "zscore", threshold: 25 }, /zscore alert must be from -20 to 20/],
      [{ metric: "zscore", threshold: -20.5 }, /zscore/],
      [{ metric: "percentile", threshold: 101 }, /percentile alert must be from 0 to 100/],
      [{ metric: "percentile", threshold: -1 }, /percentile/],
      [{ hysteresis: -1 }, /hysteresis must be 0 or more/],
      [{ hysteresis: "NaN" }, /hysteresis must be a number/],
      [{ metric: "zscore", threshold: 2, hysteresis: 41 }, /hysteresis for a zscore alert/],
      [{ webhookNotify: "yes" }, /webhookNotify must be true or false/],
      [{ threshold: "NaN" }, /threshold must be a number/],
    ];
    for (const [fields, message] of bad) {
      const res = await trader.post("/api/alerts", {
        commodityType: "GC_BUY",
        threshold: 1,
        ...fields,
      });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.error, JSON.stringify(fields)).toMatch(message);
    }
    // JSON's 1e400 parses to Infinity (JSON.stringify would have sent null).
    const infinite = await trader.raw(
      "POST",
      "/api/alerts",
      '{"commodityType":"GC_BUY","threshold":1,"hysteresis":1e400}',
    );
    expect(infinite.status).toBe(400);
    expect(infinite.body.error).toMatch(/hysteresis must be a (finite )?number/);
    expect((await trader.get("/api/alerts")).body.alerts).toEqual([]);

    // An update is checked against the alert as it would be stored.
    const alert = await createAlert(trader, { threshold: 150 });
    const switched = await trader.put(`/api/alerts/${alert.id}`, { metric: "zscore" });
    expect(switched.status).toBe(400);
    expect(switched.body.error).toMatch(/zscore alert must be from -20 to 20/);
    for (const patch of [{ hysteresis: -0.5 }, { metric: 7 }, { webhookNotify: null }]) {
      expect((await trader.put(`/api/alerts/${alert.id}`, patch)).status).toBe(400);
    }
    expect((await trader.get("/api/alerts")).body.alerts[0]).toMatchObject({
      metric: "spread",
      threshold: 150,
      hysteresis: null,
      webhookNotify: false,
    });
  });
});
