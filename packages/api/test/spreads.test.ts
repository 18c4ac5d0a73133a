// Users' spread definitions over HTTP (docs/http-api.md "Spreads API", docs/formulas.md): the
// built-ins listed beside them, who sees and changes what, every kind of hostile formula refused
// with nothing stored, the limits, a double submit, and the alerts a change keeps and a delete asks
// about.
import type { AlertSettings } from "@spreadwatch/db";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addTrader, startWithTrader } from "./fakes/signed-in-trader.ts";
import { HttpClient } from "./http-client.ts";
import type { TestServer } from "./server.ts";

let server: TestServer;
let admin: HttpClient;
let trader: HttpClient;
let other: HttpClient;
let stranger: HttpClient;
/** The trader's user id (startWithTrader's "trader" is user 2). */
const TRADER_ID = 2;

beforeAll(async () => {
  ({ server, admin, trader } = await startWithTrader());
  other = await addTrader(server, admin, "other");
  stranger = new HttpClient(server.url);
});
afterAll(() => server.stop());

/** Every test starts with no stored definitions and no alerts. */
afterEach(async () => {
  const { store, spreads } = server.services;
  for (const spread of await store.spreads.list()) await store.spreads.delete(spread.id, []);
  for (const user of await store.users.list())
    for (const alert of await store.alerts.listByUser(user.id))
      await store.alerts.delete(user.id, alert.id);
  await spreads.reload();
});

const CALENDAR = {
  name: "Gold near/next",
  legs: [
    { name: "a", instrument: "GOLD", lots: 1 },
    { name: "b", instrument: "GOLD@next", lots: 1 },
  ],
  formula: "a - b",
};
const RATIO = {
  name: "Gold/silver",
  legs: [
    { name: "g", instrument: "GOLD" },
    { name: "s", instrument: "SILVER" },
  ],
  formula: "g / s",
};
const BUILT_INS = ["GC", "SI", "HG", "NG", "CL", "XAU_SPOT", "XAG_SPOT", "NIFTY"];

const symbolsOf = async (client: HttpClient) =>
  (await client.get("/api/spreads")).body.spreads.map((s: { symbol: string }) => s.symbol);
const stored = async () => server.services.store.spreads.list();

async function alertOn(userId: number, commodityType: string) {
  const settings: AlertSettings = {
    commodityType,
    threshold: 10,
    soundId: "beep",
    enabled: true,
    telegramNotify: false,
    maxNotifications: 1,
  };
  return server.services.store.alerts.create(userId, settings, Date.now());
}

describe("the spreads list", () => {
  it("lists the eight built-ins to anyone signed in, and nothing to a stranger", async () => {
    expect((await stranger.get("/api/spreads")).status).toBe(401);
    expect((await stranger.post("/api/spreads", CALENDAR)).status).toBe(401);
    expect((await stranger.get("/api/spreads/-1")).status).toBe(401);
    const { status, body } = await trader.get("/api/spreads");
    expect(status).toBe(200);
    expect(body.spreads.map((s: { symbol: string }) => s.symbol)).toEqual(BUILT_INS);
    expect(body.spreads[0]).toMatchObject({
      id: -1,
      symbol: "GC",
      name: "Gold",
      legs: [
        { name: "m", instrument: "GOLD" },
        { name: "c", instrument: "GC" },
        { name: "fx", instrument: "USDINR" },
      ],
      shared: true,
      builtin: true,
      editable: false,
    });
    expect((await trader.get("/api/spreads/-6")).body).toMatchObject({ symbol: "XAU_SPOT" });
    expect((await admin.put("/api/spreads/-1", RATIO)).status).toBe(403);
    expect((await admin.delete("/api/spreads/-1")).status).toBe(403);
  });
});

describe("a user's own spread", () => {
  it("is created with a server-picked symbol, puts its shipped legs in use, and only its owner sees it", async () => {
    const created = await trader.post("/api/spreads", CALENDAR);
    expect(created.status).toBe(201);
    const { id } = created.body;
    expect(created.body).toEqual({ id, symbol: `SP${id}`, ...CALENDAR, shared: false });
    // GOLD@next was shipped but not in use: the calendar quotes at once.
    const keys = (await trader.get("/api/instruments")).body.instruments.map(
      (i: { key: string }) => i.key,
    );
    expect(keys).toContain("GOLD@next");
    expect(await symbolsOf(trader)).toEqual([...BUILT_INS, `SP${id}`]);
    expect((await trader.get(`/api/spreads/${id}`)).body).toEqual({
      ...created.body,
      builtin: false,
      editable: true,
    });
    expect(server.services.spreads.executable(`SP${id}_BUY`)?.spread.checked).not.toBeNull();
    // Another user (an admin too) learns nothing of it.
    for (const client of [other, admin]) {
      expect(await symbolsOf(client)).toEqual(BUILT_INS);
      expect((await client.get(`/api/spreads/${id}`)).status).toBe(404);
      expect((await client.put(`/api/spreads/${id}`, RATIO)).status).toBe(404);
      expect((await client.delete(`/api/spreads/${id}?confirm=true`)).status).toBe(404);
    }
    expect((await trader.get(`/api/spreads/${id + 1000}`)).body).toEqual({
      error: "Spread not found",
    });
    expect(await stored()).toHaveLength(1);
    expect((await stored())[0]).toMatchObject({ ...CALENDAR, ownerId: TRADER_ID });
  });

  it("an instrument a definition uses cannot be taken out of use", async () => {
    const { id } = (await trader.post("/api/spreads", CALENDAR)).body;
    await alertOn(TRADER_ID, `SP${id}_SELL`);
    const refused = await admin.delete(`/api/instruments/${encodeURIComponent("GOLD@next")}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: `GOLD@next is used by the user spread “Gold near/next” (SP${id}) and 1 alert: SP${id}_SELL at 10 (trader)`,
      usedBy: { spreads: 1, alerts: 1 },
    });
    // GOLD: the built-in parity and the calendar.
    expect((await admin.delete("/api/instruments/GOLD")).body).toMatchObject({
      error: `GOLD is used by the built-in spread GC, the user spread “Gold near/next” (SP${id}) and 1 alert: SP${id}_SELL at 10 (trader)`,
      usedBy: { spreads: 2, alerts: 1 },
    });
    expect((await trader.delete(`/api/spreads/${id}?confirm=true`)).status).toBe(204);
    expect((await admin.delete(`/api/instruments/${encodeURIComponent("GOLD@next")}`)).status).toBe(
      204,
    );
  });

  it("a change keeps its alerts and says how many", async () => {
    const { id } = (await trader.post("/api/spreads", CALENDAR)).body;
    await alertOn(TRADER_ID, `SP${id}_BUY`);
    await alertOn(TRADER_ID, `SP${id}_SELL`);
    const changed = await trader.put(`/api/spreads/${id}`, RATIO);
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      id,
      symbol: `SP${id}`,
      ...RATIO,
      shared: false,
      alertsKept: 2,
    });
    expect((await trader.get(`/api/spreads/${id}`)).body).toMatchObject(RATIO);
    expect(server.services.spreads.bySymbolName(`SP${id}`)?.formula).toBe("g / s");
    expect(await server.services.store.alerts.countByUser(TRADER_ID)).toBe(2);
    // A bad change changes nothing.
    const bad = await trader.put(`/api/spreads/${id}`, { ...RATIO, formula: "g / s2" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "formula: unknown name `s2` at 5", position: 5 });
    expect((await trader.get(`/api/spreads/${id}`)).body.formula).toBe("g / s");
  });

  it("a delete asks first when alerts use it, and with confirm=true deletes them too", async () => {
    const { id } = (await trader.post("/api/spreads", CALENDAR)).body;
    await alertOn(TRADER_ID, `SP${id}_BUY`);
    await alertOn(TRADER_ID, "GC_BUY");
    const asked = await trader.delete(`/api/spreads/${id}`);
    expect(asked.status).toBe(409);
    expect(asked.body).toEqual({
      error: "1 alert uses this spread; delete it with its alert?",
      alerts: 1,
    });
    expect(await stored()).toHaveLength(1);
    expect((await trader.delete(`/api/spreads/${id}?confirm=yes`)).status).toBe(400);
    expect((await trader.delete(`/api/spreads/${id}?confirm=true`)).status).toBe(204);
    expect(await stored()).toEqual([]);
    expect(await symbolsOf(trader)).toEqual(BUILT_INS);
    const left = await server.services.store.alerts.listByUser(TRADER_ID);
    expect(left.map((a) => a.commodityType)).toEqual(["GC_BUY"]);
    expect((await trader.delete(`/api/spreads/${id}?confirm=true`)).status).toBe(404);
    // Without alerts it goes at once.
    const second = (await trader.post("/api/spreads", RATIO)).body;
    expect((await trader.delete(`/api/spreads/${second.id}`)).status).toBe(204);
  });
});

describe("a deleted user", () => {
  it("takes their spreads with them, from the store and the registry", async () => {
    const gone = await addTrader(server, admin, "leaving");
    const { id } = (await gone.post("/api/spreads", RATIO)).body;
    const users = (await admin.get("/api/auth/users")).body.users as {
      id: number;
      username: string;
    }[];
    const userId = users.find((u) => u.username === "leaving")?.id;
    // Another user's alert on it (as on a shared spread of a departing admin) goes too, rather
    // than pointing at nothing.
    const before = await server.services.store.alerts.countByUser(TRADER_ID);
    await alertOn(TRADER_ID, `SP${id}_SELL`);
    expect((await admin.delete(`/api/auth/users/${userId}`)).status).toBe(200);
    expect(server.services.spreads.bySymbolName(`SP${id}`)).toBeUndefined();
    expect(await stored()).toEqual([]);
    expect(await server.services.store.alerts.countByUser(TRADER_ID)).toBe(before);
  });
});

describe("shared spreads", () => {
  it("only an admin shares, changes or deletes one; every user sees it", async () => {
    const refused = await trader.post("/api/spreads", { ...RATIO, shared: true });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("Only an administrator can share a spread with every user");
    expect(await stored()).toEqual([]);

    const shared = await admin.post("/api/spreads", { ...RATIO, shared: true });
    expect(shared.status).toBe(201);
    const { id } = shared.body;
    for (const client of [trader, other])
      expect((await client.get(`/api/spreads/${id}`)).body).toMatchObject({
        symbol: `SP${id}`,
        shared: true,
        editable: false,
      });
    expect((await trader.put(`/api/spreads/${id}`, RATIO)).status).toBe(403);
    expect((await trader.delete(`/api/spreads/${id}?confirm=true`)).status).toBe(403);
    // Nor can a trader make their own private one shared.
    const own = (await trader.post("/api/spreads", CALENDAR)).body;
    expect((await trader.put(`/api/spreads/${own.id}`, { ...CALENDAR, shared: true })).status).toBe(
      403,
    );
    // The admin changes it (shared stays when not sent) and deletes it, with other users' alerts.
    await alertOn(TRADER_ID, `SP${id}_BUY`);
    const renamed = await admin.put(`/api/spreads/${id}`, { ...RATIO, name: "G/S" });
    expect(renamed.body).toMatchObject({ name: "G/S", shared: true, alertsKept: 1 });
    expect((await admin.delete(`/api/spreads/${id}`)).body.alerts).toBe(1);
    expect((await admin.delete(`/api/spreads/${id}?confirm=true`)).status).toBe(204);
    expect(await server.services.store.alerts.countByUser(TRADER_ID)).toBe(0);
    expect(await symbolsOf(other)).toEqual(BUILT_INS);
  });
});

describe("hostile and bad input", () => {
  const hostile = [
    ["constructor", "constructor"],
    ["__proto__", "__proto__"],
    ["process.exit(1)", "process.exit(1)"],
    ["g.constructor", "g.constructor"],
    ["an unlisted function", "eval(g) + s"],
    ["an unlisted function by a constant's name", "TROY_OUNCE_GRAMS(g) + s"],
    ["a prototype member", "toString(g, s)"],
    ["10,000 nested parentheses", `${"(".repeat(10_000)}g / s${")".repeat(10_000)}`],
    ["33 nested parentheses", `${"(".repeat(33)}g / s${")".repeat(33)}`],
    ["an assignment", "g = s"],
    ["a string", "g + 'x' + s"],
    ["a comparison", "g > s"],
    ["a leg moving the spread both ways", "(g - s) * s"],
    ["an unused leg", "g"],
    ["501 characters", `g / s${" ".repeat(496)}`],
  ] as const;

  it.each(hostile)(
    "a formula with %s is a 400 naming the formula, and nothing is stored",
    async (_, formula) => {
      const response = await trader.post("/api/spreads", { ...RATIO, formula });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(/^formula: /);
      expect(await stored()).toEqual([]);
      expect(await symbolsOf(trader)).toEqual(BUILT_INS);
    },
  );

  it("names the field that is wrong", async () => {
    const cases: Array<[unknown, string | RegExp]> = [
      [{ ...RATIO, name: " " }, "name: must not be empty"],
      [{ ...RATIO, name: "x".repeat(61) }, "name: at most 60 characters"],
      [{ ...RATIO, legs: [] }, "legs: a spread has at least one leg"],
      [
        { ...RATIO, legs: [RATIO.legs[0], { name: "s", instrument: "NOPE" }] },
        "legs.1.instrument: NOPE is not an instrument",
      ],
      [
        { ...RATIO, legs: [RATIO.legs[0], { name: "s", instrument: "SILVER", lots: 0.5 }] },
        "legs.1.lots: a whole number from 1 to 1000",
      ],
      [{ ...RATIO, formula: "g / gm2" }, "formula: unknown name `gm2` at 5"],
      [{ ...RATIO, legs: "GOLD" }, /^legs/],
      [{ ...RATIO, formula: 7 }, /^formula/],
      [{ ...RATIO, shared: "yes" }, /^shared/],
      [{ name: "x" }, /^legs/],
    ];
    for (const [body, error] of cases) {
      const response = await trader.post("/api/spreads", body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.error).toMatch(error);
    }
    expect((await trader.raw("POST", "/api/spreads", "{")).status).toBe(400);
    expect((await trader.get("/api/spreads/abc")).status).toBe(404);
    expect(await stored()).toEqual([]);
  });

  it("a double submit with one Idempotency-Key stores one spread and answers both alike", async () => {
    const send = () =>
      trader.request("POST", "/api/spreads", {
        body: CALENDAR,
        headers: { "idempotency-key": "create-calendar-1" },
      });
    const [first, second] = await Promise.all([send(), send()]);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(await stored()).toHaveLength(1);
    // The same key for another definition is refused.
    const reused = await trader.request("POST", "/api/spreads", {
      body: RATIO,
      headers: { "idempotency-key": "create-calendar-1" },
    });
    expect(reused.status).toBe(422);
    expect(await stored()).toHaveLength(1);
  });
});

describe("limits", () => {
  it("50 spreads per user: the 51st is refused, other users still create", async () => {
    const { store } = server.services;
    const many = { ...RATIO, shared: false };
    for (let i = 0; i < 50; i++)
      await store.spreads.create(TRADER_ID, many, i, { perOwner: 50, total: 1000 });
    const refused = await trader.post("/api/spreads", RATIO);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("You can have at most 50 spreads. Delete one to add another.");
    expect(await store.spreads.countByOwner(TRADER_ID)).toBe(50);
    expect((await other.post("/api/spreads", RATIO)).status).toBe(201);
  });

  it("1,000 spreads in all: the next is refused for everyone", async () => {
    const { store } = server.services;
    const admin = (await store.users.findByUsername("admin"))?.id as number;
    const many = { ...RATIO, shared: false };
    for (let i = 0; i < 1000; i++)
      await store.spreads.create(admin, many, i, { perOwner: 1000, total: 1000 });
    const refused = await trader.post("/api/spreads", RATIO);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("At most 1000 spreads can be defined in all; delete one first");
    expect((await stored()).length).toBe(1000);
  });
});
