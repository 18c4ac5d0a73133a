// Admin → Instruments over HTTP (docs/user-guide.md "Instruments"): the instruments in use, adding
// and removing them with every kind of bad request, the prices and the stream following the change,
// and what the feed is told.
import { get } from "node:http";
import {
  BUILT_IN_KEYS,
  type InstrumentSpec,
  MAX_INSTRUMENTS,
  type Quote,
  SHIPPED_INSTRUMENTS,
} from "@spreadwatch/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Feed } from "../src/feeds/feed.ts";
import type { ProviderHealth } from "../src/feeds/providers/health.ts";
import type { MarketSnapshot } from "../src/market/hub.ts";
import type { MarketStreamMessage } from "../src/stream/delta.ts";
import { addTrader, signIn } from "./fakes/signed-in-trader.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";
import { applyMessage, dataEvents } from "./stream-state.ts";

/**
 * A feed that behaves like a real provider toward the catalogue: it remembers every set of
 * instruments it is told, serves those keys, and reports as missing the ones `lacks` names.
 */
function providerFeed(lacks: Record<string, string> = {}) {
  const feed = manualFeed();
  const told: string[][] = [];
  const seams: Pick<Feed, "setInstruments" | "health"> = {
    setInstruments(instruments: readonly InstrumentSpec[]) {
      told.push(instruments.map((spec) => spec.key));
    },
    health(): ProviderHealth[] {
      const keys = told.at(-1) ?? [];
      return [
        {
          name: "fake-kite",
          kind: "kite",
          state: "live",
          delayed: false,
          keys,
          marketOpen: true,
          lastQuoteAt: null,
          lastQuoteAgeMs: null,
          reconnects: 0,
          lastError: null,
          lastErrorAt: null,
          silenceMs: 10_000,
          missing: Object.fromEntries(Object.entries(lacks).filter(([key]) => keys.includes(key))),
        },
      ];
    },
  };
  return Object.assign(feed, seams, { told });
}

/** The `data:` messages of a live stream, folded into the state a browser holds. */
function openStream(url: string) {
  let text = "";
  const request = get(`${url}/api/trpc/market.onSnapshot`, { agent: false }, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      text += chunk;
    });
  });
  request.on("error", () => {});
  const state = () =>
    dataEvents(text)
      .map((json) => JSON.parse(json) as MarketStreamMessage)
      .reduce<MarketSnapshot | undefined>(applyMessage, undefined);
  return { state, close: () => request.destroy() };
}

const zincQuote = (ts: number, bid = 265.1): Quote => ({
  source: "mcx",
  key: "ZINC",
  bid,
  ask: bid + 0.1,
  ts,
  contract: "ZINC26FEBFUT",
  expiry: "2026-02-27",
});

const keysOf = (body: { instruments: { key: string }[] }) => body.instruments.map((i) => i.key);

describe("the instruments in use", () => {
  let server: TestServer;
  let feed: ReturnType<typeof providerFeed>;
  let admin: HttpClient;
  let trader: HttpClient;
  let stranger: HttpClient;
  const streams: Array<{ close(): void }> = [];

  beforeAll(async () => {
    feed = providerFeed({ "GOLD@far": "no far contract for GOLD in Kite's instruments list" });
    server = await startTestServer({ feed });
    admin = await signIn(server, ADMIN.username, ADMIN.password);
    trader = await addTrader(server, admin, "trader");
    stranger = new HttpClient(server.url);
  });
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });
  afterAll(() => server.stop());

  /** Takes every added instrument out of use again, so each test starts from the fifteen. */
  afterEach(async () => {
    for (const { key } of await server.services.store.instruments.list())
      expect((await admin.delete(`/api/instruments/${encodeURIComponent(key)}`)).status).toBe(204);
  });

  it("lists the fifteen built-in instruments to anyone signed in, and the shipped ones to add", async () => {
    expect((await stranger.get("/api/instruments")).status).toBe(401);
    const { status, body } = await trader.get("/api/instruments");
    expect(status).toBe(200);
    expect(keysOf(body)).toEqual([...BUILT_IN_KEYS]);
    expect(body.instruments.find((i: { key: string }) => i.key === "GOLD")).toEqual({
      key: "GOLD",
      exchange: "MCX",
      name: "Gold",
      unit: "INR / 10 g",
      currency: "INR",
      lotUnits: 100,
      tick: 1,
      decimals: 2,
      month: "near",
      contract: null,
      expiry: null,
      provider: "fake-kite",
      builtIn: true,
      source: null,
      missing: null,
    });
    const available = body.available.map((i: { key: string }) => i.key);
    expect(available).toContain("ZINC");
    expect(available).toContain("GOLD@next");
    expect(available).not.toContain("GOLD");
    expect(available).toHaveLength(SHIPPED_INSTRUMENTS.length - BUILT_IN_KEYS.length);
  });

  it("adds a shipped instrument by its key alone, and the feed is told at once", async () => {
    const added = await admin.post("/api/instruments", { key: "ZINC" });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      key: "ZINC",
      exchange: "MCX",
      name: "Zinc",
      unit: "INR / kg",
      currency: "INR",
      lotUnits: 5000,
      tick: 0.05,
      decimals: 2,
      month: "near",
      contract: null,
      expiry: null,
      provider: "fake-kite",
      builtIn: false,
      source: null,
      missing: null,
    });
    expect(feed.told.at(-1)).toEqual([...BUILT_IN_KEYS, "ZINC"]);
    const listed = (await trader.get("/api/instruments")).body;
    expect(keysOf(listed)).toContain("ZINC");
    expect(listed.available.map((i: { key: string }) => i.key)).not.toContain("ZINC");
  });

  it("adds any instrument given every field, its source and a month; given fields override the shipped ones", async () => {
    const custom = {
      key: "SILVERMIC@far",
      exchange: "MCX",
      name: "Silver Micro far",
      unit: "INR / kg",
      currency: "INR",
      lotUnits: 1,
      tick: 1,
      decimals: 0,
      source: { provider: "kite", symbol: "SILVERMIC" },
    };
    const added = await admin.post("/api/instruments", custom);
    expect(added.status).toBe(201);
    // The month follows the key's @far.
    expect(added.body).toMatchObject({ ...custom, month: "far", builtIn: false });
    const brent = await admin.post("/api/instruments", {
      key: "BRENT.X",
      exchange: "NYMEX",
      name: "Brent by JSON",
      unit: "USD / bbl",
      currency: "USD",
      lotUnits: 1000,
      tick: 0.01,
      decimals: 2,
      source: { provider: "http-json", symbol: "data.brent/last" },
    });
    expect(brent.status).toBe(201);
    expect(brent.body).toMatchObject({ key: "BRENT.X", month: null });
    expect(keysOf((await admin.get("/api/instruments")).body).slice(-2)).toEqual([
      "SILVERMIC@far",
      "BRENT.X",
    ]);
  });

  it("refuses a stranger (401) and a trader (403), and changes nothing", async () => {
    expect((await stranger.post("/api/instruments", { key: "ZINC" })).status).toBe(401);
    const refused = await trader.post("/api/instruments", { key: "ZINC" });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: expect.any(String) });
    expect((await trader.delete("/api/instruments/GOLD")).status).toBe(403);
    expect((await stranger.delete("/api/instruments/GOLD")).status).toBe(401);
    expect(await server.services.store.instruments.count()).toBe(0);
    expect(keysOf((await trader.get("/api/instruments")).body)).toEqual([...BUILT_IN_KEYS]);
  });

  it("answers a bad body with 400 naming the field, and changes nothing", async () => {
    const full = {
      key: "FOO",
      exchange: "MCX",
      name: "Foo",
      unit: "INR / kg",
      currency: "INR",
      lotUnits: 10,
      tick: 0.5,
      decimals: 2,
    };
    const cases: Array<[unknown, string]> = [
      [{}, "key is required"],
      [{ key: "zinc" }, "key must be like GOLD, GOLD@next or ZINC"],
      [{ key: "GOLD@later" }, "key must be like"],
      [{ key: "ZINC", lotUnits: 0 }, "lotUnits: must be a positive number"],
      [{ key: "ZINC", lotUnits: "5000" }, "lotUnits: must be a positive number"],
      [{ key: "FOO" }, "exchange: is required for FOO, which is not in the shipped catalogue"],
      [{ ...full, exchange: "LME" }, "exchange: must be one of MCX, NFO, CDS, COMEX"],
      [{ ...full, name: " " }, "name: must not be empty"],
      [{ ...full, tick: -1 }, "tick: must be a positive number"],
      [{ ...full, decimals: 2.5 }, "decimals: must be a whole number from 0 to 8"],
      [{ ...full, currency: "EUR" }, "currency: must be one of INR, USD"],
      [{ ...full, month: "later" }, "month: must be one of near, next, far, or null"],
      [{ ...full, key: "FOO@next", month: "far" }, "month: must be next for FOO@next"],
      [{ key: "GOLD@next", month: "near" }, "month: must be next for GOLD@next"],
      [{ ...full, source: { provider: "bloomberg", symbol: "X" } }, "source.provider: must be one"],
      [{ ...full, source: { provider: "yahoo", symbol: "" } }, "source.symbol: must not be empty"],
      [{ ...full, source: { provider: "yahoo", symbol: "GC=F;drop" } }, "source.symbol: may hold"],
    ];
    for (const [body, error] of cases) {
      const res = await admin.post("/api/instruments", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toContain(error);
    }
    expect((await admin.raw("POST", "/api/instruments", "{not json")).status).toBe(400);
    expect((await admin.delete("/api/instruments/not%20a%20key")).body.error).toContain(
      "key must be like",
    );
    expect(await server.services.store.instruments.count()).toBe(0);
    expect(feed.told.at(-1)).toEqual([...BUILT_IN_KEYS]);
  });

  it("answers 409 for a key already in use, and a double submit adds once", async () => {
    const gold = await admin.post("/api/instruments", { key: "GOLD" });
    expect(gold.status).toBe(409);
    expect(gold.body).toEqual({ error: "GOLD is already in use" });
    const both = await Promise.all([
      admin.post("/api/instruments", { key: "GOLD@next" }),
      admin.post("/api/instruments", { key: "GOLD@next" }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await server.services.store.instruments.list()).map((i) => i.key)).toEqual([
      "GOLD@next",
    ]);
  });

  it("removes an added instrument by its URL-encoded key; 404 for one not in use", async () => {
    expect((await admin.post("/api/instruments", { key: "GOLD@next" })).status).toBe(201);
    const removed = await admin.delete("/api/instruments/GOLD%40next");
    expect(removed.status).toBe(204);
    expect(removed.body).toBeUndefined();
    expect(keysOf((await trader.get("/api/instruments")).body)).not.toContain("GOLD@next");
    expect(feed.told.at(-1)).toEqual([...BUILT_IN_KEYS]);
    const again = await admin.delete("/api/instruments/GOLD%40next");
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: "GOLD@next is not in use" });
  });

  it("refuses to remove what a built-in spread or an alert uses (409 naming them)", async () => {
    const copper = await admin.delete("/api/instruments/COPPER");
    expect(copper.status).toBe(409);
    expect(copper.body).toEqual({
      error: "COPPER is used by the built-in spread HG",
      usedBy: { spreads: 1, alerts: 0 },
    });
    expect(
      (await trader.post("/api/alerts", { commodityType: "GC_BUY", threshold: 1 })).status,
    ).toBe(200);
    const gold = await admin.delete("/api/instruments/GOLD");
    expect(gold.body).toEqual({
      error: "GOLD is used by the built-in spread GC and 1 alert: GC_BUY at 1 (trader)",
      usedBy: { spreads: 1, alerts: 1 },
    });
    // USDINR is every parity's input; GC also the spot gold spread's.
    expect((await admin.delete("/api/instruments/USDINR")).body.usedBy).toEqual({
      spreads: 5,
      alerts: 1,
    });
    expect((await admin.delete("/api/instruments/GC")).body.usedBy).toEqual({
      spreads: 2,
      alerts: 1,
    });
    expect(keysOf((await trader.get("/api/instruments")).body)).toEqual([...BUILT_IN_KEYS]);
  });

  it("quotes an added key under its group with its contract, and drops it everywhere on removal", async () => {
    feed.push(zincQuote(1_000));
    // Not in use yet: the hub turns it away.
    expect((await stranger.get("/api/prices")).body.mcx.ZINC).toBeUndefined();
    expect((await admin.post("/api/instruments", { key: "ZINC" })).status).toBe(201);
    feed.push(zincQuote(2_000));
    // A quote of the key under another group is not it.
    feed.push({ ...zincQuote(2_500), source: "cme" });
    const prices = (await stranger.get("/api/prices")).body;
    expect(prices.mcx.ZINC).toEqual({
      bid: 265.1,
      ask: 265.1 + 0.1,
      timestamp: 2_000,
      contract: "ZINC26FEBFUT",
    });
    expect(prices.cme.ZINC).toBeUndefined();
    expect(prices.contracts.ZINC).toEqual({ contract: "ZINC26FEBFUT", expiry: "2026-02-27" });
    const zinc = (await trader.get("/api/instruments")).body.instruments.find(
      (i: { key: string }) => i.key === "ZINC",
    );
    expect(zinc).toMatchObject({ contract: "ZINC26FEBFUT", expiry: "2026-02-27" });

    const stream = openStream(server.url);
    streams.push(stream);
    await eventually(
      async () => stream.state()?.prices.mcx.ZINC?.bid,
      (bid) => bid === 265.1,
      "the open stream to show ZINC",
    );
    expect((await admin.delete("/api/instruments/ZINC")).status).toBe(204);
    // The open browser is told it is gone: no new quote needed.
    await eventually(
      async () => stream.state()?.prices,
      (p) => p !== undefined && !("ZINC" in p.mcx) && !("ZINC" in (p.contracts ?? {})),
      "ZINC to leave the open stream",
    );
    const after = (await stranger.get("/api/prices")).body;
    expect(after.mcx.ZINC).toBeUndefined();
    expect(after.contracts?.ZINC).toBeUndefined();
    // Its quotes are turned away again; the built-in keys still quote.
    feed.push(zincQuote(3_000));
    feed.push({ source: "mcx", key: "GOLD", bid: 1, ask: 2, ts: 3_000 });
    const later = (await stranger.get("/api/prices")).body;
    expect(later.mcx.ZINC).toBeUndefined();
    expect(later.mcx.GOLD).toEqual({ bid: 1, ask: 2, timestamp: 3_000 });
  });

  it("shows why no provider serves a key, in /api/instruments and /api/health", async () => {
    expect((await admin.post("/api/instruments", { key: "GOLD@far" })).status).toBe(201);
    const far = (await trader.get("/api/instruments")).body.instruments.find(
      (i: { key: string }) => i.key === "GOLD@far",
    );
    expect(far).toMatchObject({
      provider: null,
      missing: "no far contract for GOLD in Kite's instruments list",
    });
    const health = (await stranger.get("/api/health")).body;
    expect(health.providers[0].missing).toEqual({
      "GOLD@far": "no far contract for GOLD in Kite's instruments list",
    });
  });
});

describe("the limit", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ feed: manualFeed() });
  });
  afterAll(() => server.stop());

  it(`refuses an instrument past the ${MAX_INSTRUMENTS} in use with a 400`, async () => {
    const admin = await signIn(server, ADMIN.username, ADMIN.password);
    const spare = MAX_INSTRUMENTS - BUILT_IN_KEYS.length - 1;
    const row = SHIPPED_INSTRUMENTS.find((s) => s.key === "ZINC") as InstrumentSpec;
    for (let i = 0; i < spare; i++)
      await server.services.store.instruments.add({ ...row, key: `Z${i}` }, null, i);
    // The last place: taken once, whoever asks at the same time.
    const last = await Promise.all([
      admin.post("/api/instruments", { key: "LEAD" }),
      admin.post("/api/instruments", { key: "NICKEL" }),
    ]);
    expect(last.map((r) => r.status).sort()).toEqual([201, 400]);
    const refused = last.find((r) => r.status === 400);
    expect(refused?.body).toEqual({
      error: `At most ${MAX_INSTRUMENTS} instruments can be in use; remove one first`,
    });
    const listed = (await admin.get("/api/instruments")).body.instruments;
    expect(listed).toHaveLength(MAX_INSTRUMENTS);
  });
});
