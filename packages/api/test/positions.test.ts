// Spread positions over HTTP (docs/http-api.md "Positions API (paper)"): opened at the live
// executable value, a typed entry or typed leg fills; marked at the executable exit with core's
// cost model; closed in parts with realised P&L; rolled onto the next contract in one campaign; the
// closed trades' CSV and summary; hostile input refused with nothing stored; a double submit makes
// one; stale legs grey the mark and refuse a live entry.
import { perLot, type Quote } from "@spreadwatch/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addTrader, signIn } from "./fakes/signed-in-trader.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer;
let feed: ReturnType<typeof manualFeed>;
let admin: HttpClient;
let trader: HttpClient;
let other: HttpClient;

beforeAll(async () => {
  feed = manualFeed();
  server = await startTestServer({ feed });
  admin = await signIn(server, ADMIN.username, ADMIN.password);
  trader = await addTrader(server, admin, "trader");
  other = await addTrader(server, admin, "other");
});
afterAll(() => server.stop());

/** Every test starts with no positions and no stored definitions. */
afterEach(async () => {
  const { store } = server.services;
  for (const user of await store.users.list())
    for (const status of ["open", "closed"] as const)
      for (const p of await store.positions.list(user.id, status))
        await store.positions.delete(user.id, p.id);
  for (const spread of await store.spreads.list()) await store.spreads.delete(spread.id, []);
  await server.services.spreads.reload();
  await server.services.positions.load();
});

/** GOLD against GC at USDINR 84, every quote stamped `ts` (now unless told). */
function quoteGold(
  mcx: { bid: number; ask: number },
  cme: { bid: number; ask: number },
  ts = Date.now(),
) {
  const quotes: Quote[] = [
    { source: "fx", key: "USDINR", price: 84, ts },
    { source: "cme", key: "GC", ...cme, ts },
    { source: "mcx", key: "GOLD", ...mcx, ts },
  ];
  for (const quote of quotes) feed.push(quote);
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read raw JSON
type Json = any;

async function calculation(symbol: string, differentFrom?: number): Promise<Json> {
  const body = await eventually(
    async () => (await fetch(`${server.url}/api/calculations`)).json() as Promise<Json>,
    (b) => b[symbol] !== undefined && b[symbol].spread !== differentFrom,
    `${symbol} in /api/calculations`,
  );
  return body[symbol];
}

/** GOLD's lot costs for the parity at MCX price `mcx` (core's perLot, as the row shows). */
const costsPerLot = (symbol: "GC_BUY" | "GC_SELL", mcx: number) =>
  perLot(symbol, { spread: 0, mcx }, 84)?.costsInr as number;

const round = (v: number) => Math.round(v * 100) / 100;

describe("opening a position", () => {
  it("opens at the live executable value and marks it at the executable exit", async () => {
    quoteGold({ bid: 76_000, ask: 76_010 }, { bid: 2650, ask: 2651 });
    const buy = await calculation("GC_BUY");
    const opened = await trader.post("/api/positions", {
      spread: "GC",
      side: "BUY",
      lots: 2,
      note: "try",
    });
    expect(opened.status).toBe(201);
    const p = opened.body;
    const sell = await calculation("GC_SELL");
    expect(p).toMatchObject({
      spread: "GC",
      name: "Gold",
      side: "BUY",
      lots: 2,
      entry: buy.spread,
      note: "try",
      units: 100,
      status: "open",
      markSymbol: "GC_SELL",
      mark: sell.spread,
      stale: false,
      campaignId: p.id,
      rolledFromId: null,
      legs: {
        m: { instrument: "GOLD", price: 76_010 },
        c: { instrument: "GC", price: 2650 },
        fx: { instrument: "USDINR", price: 84 },
      },
    });
    const gross = round((sell.spread - buy.spread) * 100 * 2);
    const costs = round(costsPerLot("GC_SELL", 76_000) * 2);
    expect(p.grossInr).toBe(gross);
    expect(p.costsInr).toBe(costs);
    expect(p.netInr).toBe(round(gross - costs));
    expect(p.netPerLotInr).toBe(round((gross - costs) / 2));
    expect(p.daysHeld).toBeLessThan(0.01);
    expect(p.dayOpenMark).toBe(buy.spread);
    expect(p.breakdown).toMatchObject({ brokerage: 40 });
    // Configured margin (core's default rates), per lot: GOLD 76,000 × 100 × 10 % = 760,000 and
    // the 3 MGC hedge at $1,650 × 84 = 415,800.
    expect(p.margin).toMatchObject({ inr: 2 * (760_000 + 415_800), source: "configured" });
    expect(p.returnOnMargin).toBeCloseTo(p.netInr / 2_351_600, 12);

    // The mark moves with the market; a SELL position is marked at GC_BUY.
    quoteGold({ bid: 76_500, ask: 76_510 }, { bid: 2650, ask: 2651 });
    const moved = await calculation("GC_SELL", sell.spread);
    const listed = (await trader.get("/api/positions")).body.positions;
    expect(listed).toHaveLength(1);
    expect(listed[0].mark).toBe(moved.spread);
    expect(listed[0].grossInr).toBe(round((moved.spread - buy.spread) * 200));
    const short = (await trader.post("/api/positions", { spread: "GC", side: "SELL", lots: 1 }))
      .body;
    expect(short.markSymbol).toBe("GC_BUY");
    expect(short.entry).toBe(moved.spread);
    expect((await trader.get("/api/positions")).body.positions).toHaveLength(2);
    expect((await other.get("/api/positions")).body.positions).toEqual([]);
  });

  it("takes a typed entry, or the legs' own fills through the spread's formula", async () => {
    quoteGold({ bid: 76_000, ask: 76_010 }, { bid: 2650, ask: 2651 });
    await calculation("GC_BUY");
    const sell = await calculation("GC_SELL");
    // Today's first one-minute candle of the mark symbol (IST day): the day's change runs from it.
    const ist = 330 * 60_000;
    const dayStart = Math.floor((Date.now() + ist) / 86_400_000) * 86_400_000 - ist;
    const first = { open: 1111, high: 1200, low: 1100, close: 1150 };
    await server.services.store.candles.save([
      { symbol: "GC_SELL", timeframe: "1m", timestamp: dayStart + 60_000, ...first },
    ]);
    const typed = await trader.post("/api/positions", {
      spread: "GC",
      side: "BUY",
      lots: 1,
      entry: 1234.5,
      units: 10,
      openedAt: Date.now() - 3 * 86_400_000,
      targetInr: 5000,
      stopInr: -2000,
    });
    expect(typed.status).toBe(201);
    expect(typed.body).toMatchObject({
      entry: 1234.5,
      units: 10,
      daysHeld: expect.closeTo(3, 2),
      targetInr: 5000,
      stopInr: -2000,
      dayOpenMark: 1111,
      changeTodayInr: round((sell.spread - 1111) * 10),
    });
    const fills = { m: 75_990, c: 2649.5, fx: 84.1 };
    const legs = await trader.post("/api/positions", {
      spread: "GC",
      side: "SELL",
      lots: 3,
      legs: fills,
    });
    expect(legs.status).toBe(201);
    const parity = 2649.5 * (10 / 31.1034768) * 84.1 * (1 + 0.06);
    expect(legs.body.entry).toBeCloseTo(75_990 - parity, 9);
    expect(legs.body.legs).toEqual({
      m: { instrument: "GOLD", price: 75_990 },
      c: { instrument: "GC", price: 2649.5 },
      fx: { instrument: "USDINR", price: 84.1 },
    });
  });

  it("refuses hostile input with a sentence, and stores nothing", async () => {
    quoteGold({ bid: 76_000, ask: 76_010 }, { bid: 2650, ask: 2651 });
    await calculation("GC_BUY");
    const bad: [unknown, number, RegExp][] = [
      [{ spread: "GC", side: "BUY", lots: 0 }, 400, /lots must be a whole number from 1 to 10,000/],
      [{ spread: "GC", side: "BUY", lots: 10_001 }, 400, /lots/],
      [{ spread: "GC", side: "BUY", lots: 1.5 }, 400, /lots/],
      [{ spread: "GC", side: "BUY", lots: "2" }, 400, /lots/],
      [{ spread: "GC", side: "HOLD", lots: 1 }, 400, /side/],
      [{ spread: "GC", side: "BUY", lots: 1, entry: "1e999" }, 400, /entry/],
      [{ spread: "GC", side: "BUY", lots: 1, legs: { m: 1, c: -2, fx: 84 } }, 400, /above 0/],
      [{ spread: "GC", side: "BUY", lots: 1, entry: 1e300 }, 400, /entry must be between/],
      [{ spread: "GC", side: "BUY", lots: 1, entry: 1, targetInr: -1e13 }, 400, /targetInr/],
      [{ spread: "GC", side: "BUY", lots: 1, legs: { m: 1, c: 2 } }, 400, /leg "fx" is missing/],
      [
        { spread: "GC", side: "BUY", lots: 1, legs: { m: 1, c: 2, fx: 3, zz: 4 } },
        400,
        /no leg "zz"/,
      ],
      [
        { spread: "GC", side: "BUY", lots: 1, entry: 1, legs: { m: 1, c: 2, fx: 3 } },
        400,
        /either entry or legs/,
      ],
      [
        { spread: "GC", side: "BUY", lots: 1, note: "x".repeat(501) },
        400,
        /note must be at most 500/,
      ],
      [
        { spread: "GC", side: "BUY", lots: 1, targetInr: 100, stopInr: 100 },
        400,
        /targetInr must be above stopInr/,
      ],
      [{ spread: "GC", side: "BUY", lots: 1, units: 0 }, 400, /units/],
      [{ spread: "GC", side: "BUY", lots: 1, openedAt: Date.now() + 3_600_000 }, 400, /future/],
      [{ spread: "NOPE", side: "BUY", lots: 1 }, 404, /Spread NOPE not found/],
      [{ spread: "XAU_SPOT", side: "BUY", lots: 1 }, 404, /not found/],
      // SI has no quotes: no live value to enter at.
      [{ spread: "SI", side: "BUY", lots: 1 }, 409, /No live value for SI_BUY/],
    ];
    for (const [body, status, error] of bad) {
      const answer = await trader.post("/api/positions", body);
      expect([answer.status, answer.body.error], JSON.stringify(body)).toEqual([
        status,
        expect.stringMatching(error),
      ]);
    }
    // 1e999 is Infinity once parsed: not a finite entry.
    const infinite = await trader.raw(
      "POST",
      "/api/positions",
      '{"spread":"GC","side":"BUY","lots":1,"entry":1e999}',
    );
    expect(infinite.status).toBe(400);
    // Another user's private spread does not exist for the trader.
    const own = await other.post("/api/spreads", {
      name: "Mine",
      legs: [
        { name: "a", instrument: "GOLD", lots: 1 },
        { name: "b", instrument: "GOLD@next", lots: 1 },
      ],
      formula: "a - b",
    });
    const refused = await trader.post("/api/positions", {
      spread: own.body.symbol,
      side: "BUY",
      lots: 1,
      entry: 1,
    });
    expect(refused.status).toBe(404);
    expect(await server.services.store.positions.listOpen()).toEqual([]);
    expect((await new HttpClient(server.url).get("/api/positions")).status).toBe(401);
  });

  it("makes one position of a double submit with the same Idempotency-Key", async () => {
    quoteGold({ bid: 76_000, ask: 76_010 }, { bid: 2650, ask: 2651 });
    await calculation("GC_BUY");
    const body = { spread: "GC", side: "BUY", lots: 1 };
    const headers = { "idempotency-key": "open-1" };
    const [first, second] = await Promise.all([
      trader.request("POST", "/api/positions", { body, headers }),
      trader.request("POST", "/api/positions", { body, headers }),
    ]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).toBe(first.body.id);
    expect(await server.services.store.positions.list(2, "open")).toHaveLength(1);
    const reused = await trader.request("POST", "/api/positions", {
      body: { ...body, lots: 2 },
      headers,
    });
    expect(reused.status).toBe(422);
    // The key is the user's: another user's same key opens their own.
    expect((await other.request("POST", "/api/positions", { body, headers })).body.id).not.toBe(
      first.body.id,
    );
  });
});

describe("previewing a position before opening it", () => {
  it("answers the margin and round-trip costs the opened position then shows", async () => {
    quoteGold({ bid: 76_000, ask: 76_010 }, { bid: 2650, ask: 2651 });
    await calculation("GC_SELL");
    const input = encodeURIComponent(JSON.stringify({ spread: "GC", side: "BUY", lots: 2 }));
    const preview = await trader.get(`/api/trpc/positions.preview?input=${input}`);
    expect(preview.status).toBe(200);
    const { costsInr, margin } = preview.body.result.data;
    expect(costsInr).toBeGreaterThan(0);
    expect(margin).toMatchObject({ source: "configured" });
    const opened = await trader.post("/api/positions", { spread: "GC", side: "BUY", lots: 2 });
    expect(opened.status).toBe(201);
    expect(costsInr).toBe(opened.body.costsInr);
    expect(margin.inr).toBe(opened.body.margin.inr);
    const bad = encodeURIComponent(JSON.stringify({ spread: "GC", side: "BUY", lots: 0 }));
    expect((await trader.get(`/api/trpc/positions.preview?input=${bad}`)).status).toBe(400);
  });
});

describe("closing", () => {
  it("closes some lots then the rest at typed and live prices, with realised P&L, CSV and summary", async () => {
    quoteGold({ bid: 76_000, ask: 76_010 }, { bid: 2650, ask: 2651 });
    await calculation("GC_BUY");
    const p = (
      await trader.post("/api/positions", { spread: "GC", side: "BUY", lots: 4, entry: 1000 })
    ).body;
    const cost = costsPerLot("GC_SELL", 76_000);
    const half = await trader.post(`/api/positions/${p.id}/close`, { lots: 2, price: 1100 });
    expect(half.status).toBe(200);
    expect(half.body.closed).toEqual({
      lots: 2,
      exit: 1100,
      realisedInr: round(100 * 100 * 2 - cost * 2),
    });
    expect(half.body.position).toMatchObject({
      id: p.id,
      lots: 2,
      status: "open",
      realisedInr: half.body.closed.realisedInr,
    });
    const tooMany = await trader.post(`/api/positions/${p.id}/close`, { lots: 3 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe("Only 2 lots are open");
    const sell = await calculation("GC_SELL");
    const rest = await trader.post(`/api/positions/${p.id}/close`, {});
    expect(rest.status).toBe(200);
    expect(rest.body.closed.lots).toBe(2);
    expect(rest.body.closed.exit).toBe(sell.spread);
    expect(rest.body.closed.realisedInr).toBe(
      round(round((sell.spread - 1000) * 100 * 2) - cost * 2),
    );
    expect(rest.body.position).toBeNull();
    expect((await trader.post(`/api/positions/${p.id}/close`, {})).status).toBe(409);
    expect((await trader.get("/api/positions")).body.positions).toEqual([]);
    const closed = (await trader.get("/api/positions?status=closed")).body.positions;
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({ id: p.id, status: "closed", lots: 0, mark: null });
    expect(closed[0].closes.map((c: Json) => c.lots)).toEqual([2, 2]);
    expect(closed[0].realisedInr).toBe(
      round(half.body.closed.realisedInr + rest.body.closed.realisedInr),
    );

    const csv = await fetch(`${server.url}/api/positions/closed.csv`, {
      headers: { cookie: trader.cookieHeader },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "close_id,position_id,campaign_id,spread,name,side,lots,entry,exit,realised_inr,opened_at,closed_at,reason,opened_at_ist,closed_at_ist",
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\d+,${p.id},${p.id},"GC","Gold","BUY",2,1000.00,1100.00,${half.body.closed.realisedInr.toFixed(2)},`,
      ),
    );
    const summary = (await trader.get("/api/positions/summary")).body;
    expect(summary).toMatchObject({
      trades: 2,
      netInr: closed[0].realisedInr,
      best: Math.max(half.body.closed.realisedInr, rest.body.closed.realisedInr),
      worst: Math.min(half.body.closed.realisedInr, rest.body.closed.realisedInr),
    });
    expect((await other.get("/api/positions/summary")).body.trades).toBe(0);
    const otherCsv = await fetch(`${server.url}/api/positions/closed.csv`, {
      headers: { cookie: other.cookieHeader },
    });
    expect((await otherCsv.text()).trimEnd().split("\r\n")).toHaveLength(1);
  });

  it("writes the closed trades' CSV safe for any spreadsheet: text quoted, formulas defused, the spread's decimals, UTC and IST", async () => {
    const hostile = "x;=cmd|' /C calc'!A0;";
    const spread = await trader.post("/api/spreads", {
      name: hostile,
      legs: [
        { name: "g", instrument: "GOLD" },
        { name: "s", instrument: "SILVER" },
      ],
      formula: "g / s",
    });
    expect(spread.status).toBe(201);
    const ratio = await trader.post("/api/positions", {
      spread: spread.body.symbol,
      side: "SELL",
      lots: 1,
      entry: 0.84448888,
      openedAt: Date.UTC(2026, 10, 20, 18, 45),
    });
    expect(ratio.status).toBe(201);
    await trader.post(`/api/positions/${ratio.body.id}/close`, { price: 0.8312345 });
    const rupees = await trader.post("/api/positions", {
      spread: "GC",
      side: "BUY",
      lots: 1,
      entry: -1234.120030979946,
    });
    await trader.post(`/api/positions/${rupees.body.id}/close`, { price: 1100.5 });
    const csv = await fetch(`${server.url}/api/positions/closed.csv`, {
      headers: { cookie: trader.cookieHeader },
    });
    const [header, ...lines] = (await csv.text()).trimEnd().split("\r\n");
    const columns = (header as string).split(",");
    const row = (spreadSymbol: string) => {
      const line = lines.find((l) => l.includes(`"${spreadSymbol}"`)) as string;
      // Split only between cells: no cell here holds a comma.
      return Object.fromEntries(line.split(",").map((cell, i) => [columns[i], cell]));
    };
    const hostileRow = row(spread.body.symbol);
    expect(hostileRow.name).toBe(`"x;'=cmd|' /C calc'!A0;"`);
    expect(hostileRow).toMatchObject({
      side: '"SELL"',
      entry: "0.8445",
      exit: "0.8312",
      reason: '"close"',
      opened_at: '"2026-11-20T18:45:00.000Z"',
      opened_at_ist: '"2026-11-21T00:15:00.000+05:30"',
    });
    const closedAt = Date.parse(JSON.parse(hostileRow.closed_at as string));
    expect(JSON.parse(hostileRow.closed_at_ist as string)).toBe(
      new Date(closedAt + 330 * 60_000).toISOString().replace("Z", "+05:30"),
    );
    // No cell of any line starts a formula when a spreadsheet splits it on ; , tab or |.
    for (const line of lines)
      for (const separator of [",", ";", "\t", "|"])
        for (const cell of line.split(separator))
          expect(cell.replace(/^[ "]+/, "")).not.toMatch(/^[=+@\t\r]/);
    expect(row("GC")).toMatchObject({ entry: "-1234.12", exit: "1100.50" });
  });

  it("closes once for a double click with the same Idempotency-Key", async () => {
    const p = (
      await trader.post("/api/positions", { spread: "GC", side: "BUY", lots: 3, entry: 10 })
    ).body;
    const close = () =>
      trader.request("POST", `/api/positions/${p.id}/close`, {
        body: { lots: 1, price: 12 },
        headers: { "idempotency-key": "close-1" },
      });
    const [first, second] = await Promise.all([close(), close()]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.closed).toEqual(first.body.closed);
    expect((await trader.get(`/api/positions/${p.id}`)).body.lots).toBe(2);
    expect(await server.services.store.positions.closes(2, [p.id])).toHaveLength(1);
    // Without a key, a second close is a second close.
    await trader.post(`/api/positions/${p.id}/close`, { lots: 1, price: 12 });
    expect((await trader.get(`/api/positions/${p.id}`)).body.lots).toBe(1);
  });

  it("patches note, target and stop, and deletes a position opened by mistake", async () => {
    const p = (
      await trader.post("/api/positions", { spread: "GC", side: "BUY", lots: 1, entry: 10 })
    ).body;
    const patch = async (body: unknown) =>
      trader.request("PATCH", `/api/positions/${p.id}`, { body });
    expect((await patch({ note: "moved", targetInr: 900, stopInr: -100 })).body).toMatchObject({
      note: "moved",
      targetInr: 900,
      stopInr: -100,
    });
    expect((await patch({ targetInr: -200 })).status).toBe(400);
    expect((await patch({ targetInr: null })).body).toMatchObject({
      targetInr: null,
      stopInr: -100,
    });
    expect((await patch({ note: 5 })).status).toBe(400);
    expect((await trader.delete(`/api/positions/${p.id}`)).status).toBe(204);
    expect((await trader.get(`/api/positions/${p.id}`)).status).toBe(404);
    expect((await trader.delete(`/api/positions/${p.id}`)).status).toBe(404);
    expect((await trader.get("/api/positions/abc")).status).toBe(404);
  });
});

describe("rolling", () => {
  it("closes every lot and opens the spread on the next contract, one campaign", async () => {
    quoteGold({ bid: 76_000, ask: 76_010 }, { bid: 2650, ask: 2651 });
    await calculation("GC_BUY");
    const open = { spread: "GC", side: "BUY", lots: 2, entry: 1000, targetInr: 50_000 };
    const p = (await trader.post("/api/positions", open)).body;
    await trader.post(`/api/positions/${p.id}/close`, { lots: 1, price: 1100 });
    // GOLD@next and GC@next have no quotes yet: a live roll cannot price the new entry. The
    // attempt puts them in use, so the feed is asked for them.
    const early = await trader.post(`/api/positions/${p.id}/roll`, {});
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(/next contract/);
    expect((await trader.get(`/api/positions/${p.id}`)).body.lots).toBe(1);
    const keys = (await trader.get("/api/instruments")).body.instruments.map((i: Json) => i.key);
    expect(keys).toEqual(expect.arrayContaining(["GOLD@next", "GC@next"]));

    // The next contracts quote: the roll closes at GC_SELL and enters at the new spread's BUY.
    quoteGold({ bid: 76_000, ask: 76_010 }, { bid: 2650, ask: 2651 });
    const ts = Date.now();
    feed.push({ source: "cme", key: "GC@next", bid: 2660, ask: 2661, ts });
    feed.push({ source: "mcx", key: "GOLD@next", bid: 76_800, ask: 76_810, ts });
    const exit = (await calculation("GC_SELL")).spread;
    const rolled = await trader.post(`/api/positions/${p.id}/roll`, {});
    expect(rolled.status).toBe(200);
    const cost = costsPerLot("GC_SELL", 76_000);
    expect(rolled.body.closed).toEqual({
      lots: 1,
      exit,
      realisedInr: round(round((exit - 1000) * 100) - cost),
    });
    const next = rolled.body.position;
    const parity = 2660 * (10 / 31.1034768) * 84 * (1 + 0.06);
    expect(next.entry).toBeCloseTo(76_810 - parity, 9);
    expect(next).toMatchObject({
      side: "BUY",
      lots: 1,
      units: 100,
      targetInr: 50_000,
      campaignId: p.id,
      rolledFromId: p.id,
      name: "Gold → next",
      legs: {
        m: { instrument: "GOLD@next", price: 76_810 },
        c: { instrument: "GC@next", price: 2660 },
        fx: { instrument: "USDINR", price: 84 },
      },
    });
    const definition = (await trader.get("/api/spreads")).body.spreads.find(
      (s: Json) => s.symbol === next.spread,
    );
    expect(definition.legs).toEqual([
      { name: "m", instrument: "GOLD@next", lots: 1 },
      { name: "c", instrument: "GC@next" },
      { name: "fx", instrument: "USDINR" },
    ]);
    expect(definition.shared).toBe(false);
    // Another user sees nothing of the definition the roll made.
    const others = (await other.get("/api/spreads")).body.spreads.map((s: Json) => s.symbol);
    expect(others).not.toContain(next.spread);

    // The new position is marked on the next contracts; the campaign sums both.
    const listed = (await trader.get("/api/positions")).body.positions;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ stale: false, markSymbol: `${next.spread}_SELL` });
    const realised = round(10_000 - cost) + rolled.body.closed.realisedInr;
    expect(listed[0].campaignInr).toBe(round(realised + listed[0].netInr));

    // A second roll reuses the "→ next" legs one month on (@far), typed when @far has no quotes.
    const again = await trader.post(`/api/positions/${next.id}/roll`, { exit: 950, entry: 800 });
    expect(again.status).toBe(200);
    expect(again.body.position).toMatchObject({
      campaignId: p.id,
      rolledFromId: next.id,
      entry: 800,
    });
    const csv = await fetch(`${server.url}/api/positions/closed.csv`, {
      headers: { cookie: trader.cookieHeader },
    });
    expect((await csv.text()).match(/,"roll",/g)).toHaveLength(2);
    const stranger = await other.post(`/api/positions/${again.body.position.id}/roll`, {
      exit: 1,
      entry: 1,
    });
    expect(stranger.status).toBe(404);
  });

  it("refuses a spread with no futures leg to move", async () => {
    const ratio = (
      await trader.post("/api/spreads", {
        name: "USDINR alone",
        legs: [{ name: "u", instrument: "USDINR" }],
        formula: "u * 1",
      })
    ).body;
    const p = (
      await trader.post("/api/positions", { spread: ratio.symbol, side: "BUY", lots: 1, entry: 84 })
    ).body;
    expect(p.units).toBe(1);
    const refused = await trader.post(`/api/positions/${p.id}/roll`, { exit: 85, entry: 85 });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      "USDINR alone has no near or next futures leg to roll to a later contract",
    );
    expect((await trader.get(`/api/positions/${p.id}`)).body.lots).toBe(1);
  });
});

describe("a leg whose feed rolls to the next contract while the position is open", () => {
  it("keeps the held contract's last mark, greyed and due, refuses a live exit, and rolls into the spread itself", async () => {
    const dec = { contract: "GOLD26DECFUT", expiry: "2026-12-04" };
    const gold = (bid: number, contract = dec) =>
      feed.push({ source: "mcx", key: "GOLD", bid, ask: bid + 10, ts: Date.now(), ...contract });
    quoteGold({ bid: 76_000, ask: 76_010 }, { bid: 2650, ask: 2651 });
    gold(76_000);
    await eventually(
      async () => (await fetch(`${server.url}/api/prices`)).json() as Promise<Json>,
      (p) => p.mcx.GOLD?.contract === dec.contract,
      "GOLD on the December contract",
    );
    const p = (await trader.post("/api/positions", { spread: "GC", side: "BUY", lots: 1 })).body;
    expect(p.legs.m).toMatchObject({ instrument: "GOLD", contract: dec.contract });
    const held = (await trader.get(`/api/positions/${p.id}`)).body;
    expect(held).toMatchObject({ stale: false, contractMoved: null });

    // The feed rolls GOLD to February, 800 higher: that is another contract's price, not a gain.
    const feb = { contract: "GOLD26FEBFUT", expiry: "2027-02-05" };
    gold(76_800, feb);
    const moved = await eventually(
      async () => (await trader.get(`/api/positions/${p.id}`)).body,
      (v) => v.contractMoved !== null,
      "the position to see GOLD's roll",
    );
    expect(moved).toMatchObject({
      stale: true,
      expiresInDays: 0,
      mark: held.mark,
      netInr: held.netInr,
      contractMoved: { leg: "m", instrument: "GOLD", from: dec.contract, to: feb.contract },
    });
    const close = await trader.post(`/api/positions/${p.id}/close`, {});
    expect(close.status).toBe(409);
    expect(close.body.error).toBe(
      "GOLD now quotes GOLD26FEBFUT, not the GOLD26DECFUT held: roll the position, or close it at a typed price",
    );
    expect((await trader.post(`/api/positions/${p.id}/roll`, {})).status).toBe(409);
    // A typed exit of the December contract rolls into GC itself, now on February.
    const rolled = await trader.post(`/api/positions/${p.id}/roll`, { exit: held.mark });
    expect(rolled.status).toBe(200);
    expect(rolled.body.position).toMatchObject({
      spread: "GC",
      campaignId: p.id,
      contractMoved: null,
      legs: { m: { instrument: "GOLD", contract: feb.contract } },
    });
    expect(rolled.body.closed.exit).toBe(held.mark);
  });
});

describe("rolling by contract: each leg to the contract it quotes after its own roll", () => {
  const quoteContracts = (gold: string, gc: string) => {
    const ts = Date.now();
    feed.push({ source: "fx", key: "USDINR", price: 84, ts });
    feed.push({ source: "cme", key: "GC", bid: 2650, ask: 2651, ts, contract: gc });
    feed.push({ source: "mcx", key: "GOLD", bid: 76_000, ask: 76_010, ts, contract: gold });
  };
  const onContracts = (gold: string, gc: string) =>
    eventually(
      async () => (await fetch(`${server.url}/api/prices`)).json() as Promise<Json>,
      (p) => p.mcx.GOLD?.contract === gold && p.cme.GC?.contract === gc,
      `GOLD on ${gold} and GC on ${gc}`,
    );
  const fills = { m: 76_900, c: 2662, fx: 84 };
  const parityAt = (f: typeof fills) => f.m - f.c * (10 / 31.1034768) * f.fx * (1 + 0.06);

  it("rolls GOLD Dec→Feb and leaves GC on Feb, at each leg's typed fill", async () => {
    // GC already quotes February (COMEX rolls before MCX): the position holds GOLD Dec, GC Feb.
    quoteContracts("GOLD26DECFUT", "GCG27");
    await onContracts("GOLD26DECFUT", "GCG27");
    const p = (await trader.post("/api/positions", { spread: "GC", side: "BUY", lots: 1 })).body;
    expect(p.legs.c).toMatchObject({ instrument: "GC", contract: "GCG27" });
    // GOLD@next has no quote yet: the roll is priced by each leg's fill on the new contracts.
    const typo = await trader.post(`/api/positions/${p.id}/roll`, {
      legs: { m: 76_900, c: 2662 },
    });
    expect(typo.status).toBe(400);
    expect(typo.body.error).toBe('legs: the price of leg "fx" is missing');
    expect((await trader.get(`/api/positions/${p.id}`)).body.status).toBe("open");
    const rolled = await trader.post(`/api/positions/${p.id}/roll`, { legs: fills });
    expect(rolled.status).toBe(200);
    const next = rolled.body.position;
    expect(next.entry).toBeCloseTo(parityAt(fills), 9);
    expect(next.legs).toMatchObject({
      m: { instrument: "GOLD@next", price: fills.m },
      c: { instrument: "GC", price: fills.c, contract: "GCG27" },
      fx: { instrument: "USDINR", price: 84 },
    });
    const definition = (await trader.get("/api/spreads")).body.spreads.find(
      (s: Json) => s.symbol === next.spread,
    );
    expect(definition.legs).toEqual([
      { name: "m", instrument: "GOLD@next", lots: 1 },
      { name: "c", instrument: "GC" },
      { name: "fx", instrument: "USDINR" },
    ]);
  });

  it("keeps GC on the contract its feed rolled to and moves GOLD to the same month", async () => {
    quoteContracts("GOLD26DECFUT", "GCZ26");
    await onContracts("GOLD26DECFUT", "GCZ26");
    const p = (await trader.post("/api/positions", { spread: "GC", side: "BUY", lots: 1 })).body;
    // COMEX rolls GC to February while GOLD still quotes December.
    quoteContracts("GOLD26DECFUT", "GCG27");
    await onContracts("GOLD26DECFUT", "GCG27");
    const rolled = await trader.post(`/api/positions/${p.id}/roll`, {
      exit: p.mark,
      entry: 1234,
    });
    expect(rolled.status).toBe(200);
    expect(rolled.body.position).toMatchObject({ entry: 1234 });
    const definition = (await trader.get("/api/spreads")).body.spreads.find(
      (s: Json) => s.symbol === rolled.body.position.spread,
    );
    expect(definition.legs.map((leg: Json) => leg.instrument)).toEqual([
      "GOLD@next",
      "GC",
      "USDINR",
    ]);
  });
});

describe("stale legs", () => {
  it("grey the mark, keep the last one, and refuse a live entry or exit", async () => {
    quoteGold({ bid: 76_000, ask: 76_010 }, { bid: 2650, ask: 2651 });
    await calculation("GC_BUY");
    const p = (await trader.post("/api/positions", { spread: "GC", side: "BUY", lots: 1 })).body;
    expect(p.stale).toBe(false);
    // A crossed MCX book: GC has no executable value, the position keeps its last mark, greyed.
    feed.push({ source: "mcx", key: "GOLD", bid: 76_100, ask: 76_000, ts: Date.now() });
    const stale = await eventually(
      async () => (await trader.get(`/api/positions/${p.id}`)).body,
      (b: Json) => b.stale === true,
      "the stale mark",
    );
    expect(stale.mark).toBe(p.mark);
    expect(
      (await trader.post("/api/positions", { spread: "GC", side: "BUY", lots: 1 })).status,
    ).toBe(409);
    expect((await trader.post(`/api/positions/${p.id}/close`, {})).status).toBe(409);
    // A typed price still closes it.
    expect((await trader.post(`/api/positions/${p.id}/close`, { price: 1 })).status).toBe(200);
  });

  it("a leg quoted more than 10 s ago greys a mark the hub still has", async () => {
    quoteGold({ bid: 76_000, ask: 76_010 }, { bid: 2650, ask: 2651 });
    const fresh = await calculation("GC_SELL");
    const p = (await trader.post("/api/positions", { spread: "GC", side: "BUY", lots: 1 })).body;
    expect(p.stale).toBe(false);
    // Every leg's last quote a minute old: the spread has a value, but not a live one.
    quoteGold({ bid: 76_200, ask: 76_210 }, { bid: 2650, ask: 2651 }, Date.now() - 60_000);
    const old = await calculation("GC_SELL", fresh.spread);
    const stale = (await trader.get(`/api/positions/${p.id}`)).body;
    expect(stale).toMatchObject({ stale: true, mark: old.spread });
    const refused = await trader.post("/api/positions", { spread: "GC", side: "BUY", lots: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/No live value for GC_BUY/);
  });
});

describe("a spread with open positions", () => {
  it("cannot be deleted, even confirmed, nor repriced, until they are closed", async () => {
    const spread = (
      await trader.post("/api/spreads", {
        name: "Gold calendar",
        legs: [
          { name: "a", instrument: "GOLD", lots: 1 },
          { name: "b", instrument: "GOLD@next", lots: 1 },
        ],
        formula: "a - b",
      })
    ).body;
    const p = (
      await trader.post("/api/positions", {
        spread: spread.symbol,
        side: "SELL",
        lots: 1,
        entry: -300,
      })
    ).body;
    // GOLD's lot (100 units of 10 g) × 1 lot: ₹100 a point.
    expect(p.units).toBe(100);
    const refused = await trader.delete(`/api/spreads/${spread.id}?confirm=true`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: "1 open position is on this spread; close it before deleting the spread",
      positions: 1,
    });
    // Nor given another formula or legs: the entry was taken on this one. A new name is fine.
    const body = { name: spread.name, legs: spread.legs, formula: "b - a" };
    const edit = await trader.put(`/api/spreads/${spread.id}`, body);
    expect(edit.status).toBe(409);
    expect(edit.body).toEqual({
      error: "1 open position is on this spread; close it before changing its formula or legs",
      positions: 1,
    });
    const moreLots = spread.legs.map((leg: Json) => ({ ...leg, lots: 2 }));
    const legsEdit = { ...body, formula: spread.formula, legs: moreLots };
    expect((await trader.put(`/api/spreads/${spread.id}`, legsEdit)).status).toBe(409);
    const renamed = { ...body, name: "Gold Dec/Feb", formula: spread.formula };
    expect((await trader.put(`/api/spreads/${spread.id}`, renamed)).status).toBe(200);
    expect(
      (await trader.get("/api/spreads")).body.spreads.find((s: Json) => s.id === spread.id),
    ).toMatchObject({ name: "Gold Dec/Feb", formula: "a - b" });
    await trader.post(`/api/positions/${p.id}/close`, { price: -250 });
    expect((await trader.put(`/api/spreads/${spread.id}`, body)).status).toBe(200);
    expect((await trader.delete(`/api/spreads/${spread.id}?confirm=true`)).status).toBe(204);
  });
});

describe("the open positions index (position alerts read it)", () => {
  it("follows every user's opens, partial and full closes and deletes, per spread", async () => {
    const index = server.services.positions;
    const ids = (symbol: string) =>
      index
        .openPositionsOn(symbol)
        .map((p) => p.id)
        .sort();
    const open = async (client: HttpClient, spread: string) =>
      (await client.post("/api/positions", { spread, side: "BUY", lots: 2, entry: 1 })).body.id;
    const a = await open(trader, "GC");
    const b = await open(other, "GC");
    const c = await open(trader, "SI");
    await eventually(
      async () => ids("GC"),
      (list) => list.length === 2,
      "both GC positions",
    );
    expect(ids("GC")).toEqual([a, b].sort());
    expect(ids("SI")).toEqual([c]);
    // A partial close keeps it (with its lots now); the last lot takes it out.
    await trader.post(`/api/positions/${a}/close`, { lots: 1, price: 2 });
    await eventually(
      async () => index.openPositionsOn("GC").find((p) => p.id === a)?.lots,
      (lots) => lots === 1,
      "the partly closed position's lots",
    );
    await trader.post(`/api/positions/${a}/close`, { price: 2 });
    await other.delete(`/api/positions/${b}`);
    await eventually(
      async () => ids("GC"),
      (list) => list.length === 0,
      "GC to empty",
    );
    expect(ids("SI")).toEqual([c]);
  });
});

describe("deleting a user", () => {
  it("is refused while another user's open position is on their shared spread", async () => {
    const sharer = { username: "sharer", password: "sharer-pass-1", is_admin: true };
    expect((await admin.post("/api/auth/users", sharer)).status).toBe(200);
    const client = await signIn(server, sharer.username, sharer.password);
    const shared = (
      await client.post("/api/spreads", {
        name: "Shared calendar",
        legs: [
          { name: "a", instrument: "GOLD", lots: 1 },
          { name: "b", instrument: "GOLD@next", lots: 1 },
        ],
        formula: "a - b",
        shared: true,
      })
    ).body;
    // The sharer's own position goes with them; the trader's must not lose its spread.
    await client.post("/api/positions", { spread: shared.symbol, side: "BUY", lots: 1, entry: 1 });
    const p = (
      await trader.post("/api/positions", {
        spread: shared.symbol,
        side: "SELL",
        lots: 1,
        entry: 1,
      })
    ).body;
    const users = (await admin.get("/api/auth/users")).body.users as Json[];
    const id = users.find((u) => u.username === "sharer").id;
    const refused = await admin.delete(`/api/auth/users/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error:
        "1 open position of another user is on this user's shared spreads; they must be closed first",
      positions: 1,
    });
    await trader.post(`/api/positions/${p.id}/close`, { price: 2 });
    expect((await admin.delete(`/api/auth/users/${id}`)).status).toBe(200);
  });

  it("deletes their positions", async () => {
    const doomed = await addTrader(server, admin, "doomed");
    const p = (
      await doomed.post("/api/positions", { spread: "GC", side: "BUY", lots: 1, entry: 5 })
    ).body;
    const users = (await admin.get("/api/auth/users")).body.users as Json[];
    const id = users.find((u) => u.username === "doomed").id;
    expect((await admin.delete(`/api/auth/users/${id}`)).status).toBe(200);
    expect(server.services.positions.openPositionsOn("GC").map((x) => x.id)).not.toContain(p.id);
    expect(await server.services.store.positions.listOpen()).toEqual([]);
  });
});
