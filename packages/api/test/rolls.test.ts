// Rolls as events (docs/user-guide.md "Instruments"): when the contract a key's quotes name
// changes, the leader records it, also when the change happened while the server was down; GET
// /api/rolls.
import type { Quote } from "@spreadwatch/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "./fakes/signed-in-trader.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

const gold = (ts: number, contract: string, expiry: string): Quote => ({
  source: "mcx",
  key: "GOLD",
  bid: 78_000 + ts / 1000,
  ask: 78_010 + ts / 1000,
  ts,
  contract,
  expiry,
});

const FEB = "GOLD26FEBFUT";
const APR = "GOLD26APRFUT";
const JUN = "GOLD26JUNFUT";
const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse("2026-02-01T04:00:00Z");

describe("contract rolls", () => {
  let server: TestServer;
  let feed = manualFeed();
  let admin: HttpClient;

  beforeAll(async () => {
    server = await startTestServer({ feed });
    admin = await signIn(server, ADMIN.username, ADMIN.password);
  });
  afterAll(() => server.stop());

  const rollsOf = async (query = "") => {
    const res = await admin.get(`/api/rolls${query}`);
    expect(res.status).toBe(200);
    return res.body.rolls as Array<{ key: string; at: number; from: string; to: string }>;
  };

  it("records a roll when GOLD's quotes move to the next contract, with one store call per change", async () => {
    const observe = server.services.store.contracts.observe;
    let calls = 0;
    server.services.store.contracts.observe = (...args) => {
      calls++;
      return observe(...args);
    };
    try {
      for (let i = 0; i < 50; i++) feed.push(gold(T0 + i * 1000, FEB, "2026-02-05"));
      for (let i = 0; i < 50; i++) feed.push(gold(T0 + 2 * DAY + i * 1000, APR, "2026-04-03"));
      // XAUUSD names no contract: nothing to record.
      feed.push({ source: "spot", key: "XAUUSD", price: 2650, ts: T0 });
      await server.services.rolls.idle();
      expect(calls).toBe(2);
    } finally {
      server.services.store.contracts.observe = observe;
    }
    expect(await rollsOf("?key=GOLD")).toEqual([
      { key: "GOLD", at: T0 + 2 * DAY, from: FEB, to: APR },
    ]);
    expect((await admin.get("/api/prices")).body.mcx.GOLD.contract).toBe(APR);
  });

  it("answers by key and time window, [from, to)", async () => {
    expect(await rollsOf("?key=GC")).toEqual([]);
    expect(await rollsOf(`?from=${T0 + 2 * DAY}&to=${T0 + 3 * DAY}`)).toHaveLength(1);
    expect(await rollsOf(`?from=${T0}&to=${T0 + 2 * DAY}`)).toEqual([]);
    expect(await rollsOf()).toHaveLength(1);
  });

  it("refuses a stranger, and a bad query with a 400 naming the field", async () => {
    expect((await new HttpClient(server.url).get("/api/rolls")).status).toBe(401);
    const bad: Array<[string, string]> = [
      ["?from=yesterday", "from must be epoch milliseconds"],
      ["?to=1.5", "to must be epoch milliseconds"],
      ["?from=-1", "from must be epoch milliseconds"],
      ["?from=20&to=10", "from must be before to"],
      ["?key=gold", "key must be like"],
    ];
    for (const [query, error] of bad) {
      const res = await admin.get(`/api/rolls${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toContain(error);
    }
  });

  it("records a roll that happened while the server was down, from the contract it stored", async () => {
    feed = manualFeed();
    server = await server.restart({ feed });
    admin = await signIn(server, ADMIN.username, ADMIN.password);
    const at = T0 + 60 * DAY;
    feed.push(gold(at, JUN, "2026-06-05"));
    feed.push(gold(at + 1000, JUN, "2026-06-05"));
    await eventually(
      () => rollsOf("?key=GOLD"),
      (rolls) => rolls.length === 2,
      "the roll across the restart",
    );
    expect(await rollsOf("?key=GOLD")).toEqual([
      { key: "GOLD", at: T0 + 2 * DAY, from: FEB, to: APR },
      { key: "GOLD", at, from: APR, to: JUN },
    ]);
  });
});
