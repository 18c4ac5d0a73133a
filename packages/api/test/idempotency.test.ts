import { request } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addTrader, startWithTrader } from "./fakes/signed-in-trader.ts";
import { HttpClient, type JsonResponse } from "./http-client.ts";
import type { TestServer } from "./server.ts";

let server: TestServer;
let admin: HttpClient;
let trader: HttpClient;
let other: HttpClient;

// A fresh server per test: the tests assert the whole user list, and which instruments are in use
// (global to the server) after a refused request.
beforeEach(async () => {
  ({ server, admin, trader } = await startWithTrader());
  other = await addTrader(server, admin, "other");
});
afterEach(() => server.stop());

const alert = { commodityType: "GC_BUY", threshold: 125.5, soundId: "chime" };
const alerts = async (client = trader) => (await client.get("/api/alerts")).body.alerts;
const users = async () => (await admin.get("/api/auth/users")).body.users;
const trpcCreate = (client: HttpClient, input: unknown) =>
  client.post("/api/trpc/alerts.create", input);

/** A POST with an Idempotency-Key header and the client's session cookie. */
function postWithKeyHeader(client: HttpClient, path: string, body: unknown, key: string) {
  const payload = JSON.stringify(body);
  return new Promise<JsonResponse>((resolve, reject) => {
    const req = request(
      new URL(path, server.url),
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          cookie: client.cookieHeader,
          "idempotency-key": key,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }),
        );
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

describe("alerts.create with an idempotency key", () => {
  it("two parallel REST creates with one key make one alert and answer the same", async () => {
    const body = { ...alert, idempotencyKey: "submit-1" };
    const [a, b] = await Promise.all([
      trader.post("/api/alerts", body),
      trader.post("/api/alerts", body),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(await alerts()).toHaveLength(1);

    const later = await trader.post("/api/alerts", body);
    expect(later.status).toBe(200);
    expect(later.body).toEqual(a.body);
    expect(await alerts()).toHaveLength(1);
  });

  it("two parallel tRPC creates with one key make one alert; a later repeat gets the stored answer", async () => {
    const input = { ...alert, idempotencyKey: "trpc-submit" };
    const answers = await Promise.all([trpcCreate(trader, input), trpcCreate(trader, input)]);
    for (const res of answers) expect(res.status).toBe(200);
    const [a, b] = answers.map((res) => res.body.result.data);
    expect(b).toEqual(a);
    expect(a.alert).toMatchObject({ commodityType: "GC_BUY", threshold: 125.5 });
    expect((await trpcCreate(trader, input)).body.result.data).toEqual(a);
    expect(await alerts()).toHaveLength(1);
  });

  it("without a key every create is a new alert", async () => {
    await Promise.all([trader.post("/api/alerts", alert), trader.post("/api/alerts", alert)]);
    expect(await alerts()).toHaveLength(2);
  });

  it("refuses the same key with another payload, with a clear error, and changes nothing", async () => {
    const first = await trader.post("/api/alerts", { ...alert, idempotencyKey: "k" });
    const reused = await trader.post("/api/alerts", {
      ...alert,
      threshold: 99,
      idempotencyKey: "k",
    });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({
      error:
        "This Idempotency-Key was already used for a different request. Send a new key with a new request.",
    });
    expect(await alerts()).toEqual([first.body.alert]);
  });

  it("keeps one user's key apart from another's", async () => {
    const body = { ...alert, idempotencyKey: "shared-key" };
    const mine = await trader.post("/api/alerts", body);
    const theirs = await other.post("/api/alerts", { ...body, threshold: 7 });
    expect(theirs.status).toBe(200);
    expect(theirs.body.alert.threshold).toBe(7);
    expect(await alerts(trader)).toEqual([mine.body.alert]);
    expect(await alerts(other)).toEqual([theirs.body.alert]);
  });

  it("rejects a malformed key with a 400 and creates nothing", async () => {
    for (const idempotencyKey of ["", "x".repeat(256), 42]) {
      const res = await trader.post("/api/alerts", { ...alert, idempotencyKey });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^idempotencyKey must/);
    }
    expect(await alerts()).toEqual([]);
  });
});

describe("users.create with an idempotency key", () => {
  const bob = { username: "bob", password: "bob-password", idempotencyKey: "add-bob" };

  it("two parallel creates with one key make one user and answer the same", async () => {
    const [a, b] = await Promise.all([
      admin.post("/api/auth/users", bob),
      admin.post("/api/auth/users", bob),
    ]);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body).toMatchObject({ status: "success", user: { username: "bob" } });
    const later = await admin.post("/api/auth/users", bob);
    expect(later.body).toEqual(a.body);
    expect((await users()).filter((u: { username: string }) => u.username === "bob")).toHaveLength(
      1,
    );
  });

  it("refuses the key with another username or another password", async () => {
    await admin.post("/api/auth/users", bob);
    for (const changed of [{ username: "carol" }, { password: "another-password" }]) {
      const res = await admin.post("/api/auth/users", { ...bob, ...changed });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatch(/already used for a different request/);
    }
    expect((await users()).map((u: { username: string }) => u.username)).toEqual([
      "admin",
      "trader",
      "other",
      "bob",
    ]);
    // The first password is the one that stuck.
    const { idempotencyKey: _, ...credentials } = bob;
    expect((await new HttpClient(server.url).post("/api/auth/login", credentials)).status).toBe(
      200,
    );
  });
});

// The REST table maps the Idempotency-Key header into `idempotencyKey` (docs/operations.md,
// "Security and limits", double submits).
describe("Idempotency-Key header over REST", () => {
  it("POST /api/alerts twice in parallel with one header makes one alert", async () => {
    const send = () => postWithKeyHeader(trader, "/api/alerts", alert, "header-key");
    const [a, b] = await Promise.all([send(), send()]);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(await alerts()).toHaveLength(1);
  });

  it("POST /api/auth/users twice with one header makes one user", async () => {
    const carol = { username: "carol", password: "carol-password" };
    const send = () => postWithKeyHeader(admin, "/api/auth/users", carol, "header-key");
    const [a, b] = await Promise.all([send(), send()]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(
      (await users()).filter((u: { username: string }) => u.username === "carol"),
    ).toHaveLength(1);
  });
});

describe("a key reused for another request changes nothing", () => {
  const inUse = async () =>
    ((await trader.get("/api/instruments")).body.instruments as { key: string }[]).map(
      (i) => i.key,
    );
  const calendar = (near: string) => ({
    name: `${near} near/next`,
    legs: [
      { name: "a", instrument: near },
      { name: "b", instrument: `${near}@next` },
    ],
    formula: "a - b",
  });

  it("spreads.create answers 422 before putting the second body's legs in use", async () => {
    const first = await trader.request("POST", "/api/spreads", {
      body: calendar("GOLD"),
      headers: { "idempotency-key": "spread-1" },
    });
    expect(first.status).toBe(201);
    expect(await inUse()).not.toContain("CRUDEOIL@next");
    const reused = await trader.request("POST", "/api/spreads", {
      body: calendar("CRUDEOIL"),
      headers: { "idempotency-key": "spread-1" },
    });
    expect(reused.status).toBe(422);
    expect(reused.body.error).toMatch(/Idempotency-Key was already used/);
    expect(await inUse()).not.toContain("CRUDEOIL@next");
    expect(
      (await trader.get("/api/spreads")).body.spreads.filter(
        (s: { builtin: boolean }) => !s.builtin,
      ),
    ).toHaveLength(1);
  });

  it("positions.roll answers 422 before putting the next contract's legs in use", async () => {
    const open = async (spread: string) =>
      (await trader.post("/api/positions", { spread, side: "BUY", lots: 1, entry: 10 })).body
        .id as number;
    const gold = await open("GC");
    const crude = await open("CL");
    const roll = (id: number) =>
      trader.request("POST", `/api/positions/${id}/roll`, {
        body: { exit: 11, entry: 12 },
        headers: { "idempotency-key": "roll-1" },
      });
    expect((await roll(gold)).status).toBe(200);
    expect(await inUse()).not.toContain("CRUDEOIL@next");
    const reused = await roll(crude);
    expect(reused.status).toBe(422);
    const keys = await inUse();
    expect(keys).not.toContain("CRUDEOIL@next");
    expect(keys).not.toContain("CL@next");
    expect((await trader.get(`/api/positions/${crude}`)).body).toMatchObject({ status: "open" });
  });
});
