// Order tickets for spreads of NSE futures (Kite's NFO) and NSE currency futures (CDS)
// (docs/user-guide.md "Live orders"), against the fake Kite on loopback: each leg's request names
// its own exchange, counts its quantity as Kite does there (units on NFO, lots on CDS) and
// prices it on the leg's tick; a leg the hub has no book for is refused before anything is sent.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type LiveOrdersContext, startLiveOrders } from "./fakes/live-orders.ts";

// biome-ignore lint/suspicious/noExplicitAny: tests read raw JSON
type Json = any;

const NIFTY_NEAR = "NIFTY26DECFUT";
const NIFTY_NEXT = "NIFTY27JANFUT";
const USDINR_NEAR = "USDINR26DECFUT";
const USDINR_NEXT = "USDINR27JANFUT";

let t: LiveOrdersContext;
let nifty: string;
let usdinr: string;
let oneSidedSpread: string;
let singlePriceSpread: string;

/** An admin's custom future: NIFTY and NIFTY@next on NFO, USDINRF and USDINRF@next on CDS. */
function future(key: string, exchange: "NFO" | "CDS") {
  const nfo = exchange === "NFO";
  return {
    key,
    exchange,
    name: nfo ? `NIFTY futures ${key}` : `USDINR futures ${key}`,
    unit: nfo ? "points" : "INR / USD",
    currency: "INR",
    lotUnits: nfo ? 75 : 1000,
    tick: nfo ? 0.05 : 0.0025,
    decimals: nfo ? 2 : 4,
    ...(key.includes("@") ? {} : { month: "near" }),
    source: { provider: "kite", symbol: nfo ? "NIFTY" : "USDINR" },
  };
}

async function calendar(name: string, near: string, next: string): Promise<string> {
  const created = await t.trader.post("/api/spreads", {
    name,
    legs: [
      { name: "a", instrument: near },
      { name: "b", instrument: next },
    ],
    formula: "b - a",
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.symbol as string;
}

/**
 * NIFTY near 24000.40/24000.55 (3 ticks wide), next 24150.00/24151.50 (30: the thinner book);
 * USDINRF near 83.2600/83.2650 (2 ticks), next 83.4000/83.4200 (8). Prices whose pay-up tick
 * lands off the tick in floats (24000.40 − 0.05 is 24000.350000000002).
 */
function quote() {
  const ts = Date.now();
  const push = t.server.feed as unknown as { push(q: object): void };
  for (const [key, bid, ask, contract] of [
    ["NIFTY", 24_000.4, 24_000.55, NIFTY_NEAR],
    ["NIFTY@next", 24_150, 24_151.5, NIFTY_NEXT],
    ["USDINRF", 83.26, 83.265, USDINR_NEAR],
    ["USDINRF@next", 83.4, 83.42, USDINR_NEXT],
  ] as const)
    push.push({ source: "mcx", key, bid, ask, ts, contract });
}

/** A ticket once the definition's value is published (at most once a second). */
async function ticket(spread: string, body: Json): Promise<Json> {
  return vi.waitFor(
    async () => {
      quote();
      const reply = await t.trader.post("/api/executions", { spread, ...body });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      return reply.body;
    },
    { timeout: 20_000, interval: 200 },
  );
}

beforeAll(async () => {
  t = await startLiveOrders();
  for (const [key, exchange] of [
    ["NIFTY", "NFO"],
    ["NIFTY@next", "NFO"],
    ["NIFTY@far", "NFO"],
    ["USDINRF", "CDS"],
    ["USDINRF@next", "CDS"],
  ] as const) {
    const added = await t.admin.post("/api/instruments", future(key, exchange));
    expect(added.status, JSON.stringify(added.body)).toBe(201);
  }
  nifty = await calendar("NIFTY calendar", "NIFTY", "NIFTY@next");
  usdinr = await calendar("USDINR calendar", "USDINRF", "USDINRF@next");
  oneSidedSpread = await calendar("NIFTY far calendar", "NIFTY@next", "NIFTY@far");
  const nse = { ...future("NIFTYNSE", "NFO"), exchange: "NSE" };
  const added = await t.admin.post("/api/instruments", nse);
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  singlePriceSpread = await calendar("NIFTY NSE calendar", "NIFTYNSE", "NIFTY@next");
});
afterAll(() => t.stop());

describe("an NFO calendar", () => {
  it("dry run: both legs on NFO, quantity in units (lots × 75), prices on the 0.05 tick", async () => {
    const reply = await ticket(nifty, { side: "BUY", lots: 2, onHedgeFail: "flatten" });
    expect(reply).toMatchObject({ id: null, dryRun: true });
    // BUY next − near: buy the next month (the thinner book) at its ask, then sell the near at
    // its bid less one pay-up tick: 24000.40 − 0.05.
    expect(reply.requests).toEqual([
      {
        leg: "b",
        method: "POST",
        path: "/orders/regular",
        body: expect.objectContaining({
          tradingsymbol: NIFTY_NEXT,
          exchange: "NFO",
          transaction_type: "BUY",
          order_type: "LIMIT",
          quantity: "150",
          price: "24151.5",
          product: "NRML",
        }),
      },
      {
        leg: "a",
        method: "POST",
        path: "/orders/regular",
        body: expect.objectContaining({
          tradingsymbol: NIFTY_NEAR,
          exchange: "NFO",
          transaction_type: "SELL",
          order_type: "LIMIT",
          quantity: "150",
          price: "24000.35",
          product: "NRML",
        }),
      },
    ]);
    expect(t.kite.book.placements()).toEqual([]);
  });

  it("preview: the round trip costs NSE's futures charges, STT on the sell side included", async () => {
    const input = encodeURIComponent(
      JSON.stringify({ spread: nifty, side: "BUY", lots: 2, payUpTicks: 1 }),
    );
    const preview = await vi.waitFor(
      async () => {
        quote();
        const reply = await t.trader.get(`/api/trpc/executions.preview?input=${input}`);
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        return reply.body.result.data;
      },
      { timeout: 20_000, interval: 200 },
    );
    // Worked by hand (docs/user-guide.md, "Live orders through your own Kite"): sides
    // 24,151.50 × 150 = 36,22,725 and 24,000.35 × 150 = 36,00,052.50, turnover 1,44,45,555 both
    // ways. Brokerage 4 × ₹20 = 80; NSE 173 / crore 249.9081; SEBI 14.4456; STT 0.02 % of the
    // sells 1,444.5555; stamp 0.002 % of the buys 144.4556; GST 18 % of 344.3537 = 61.9837.
    expect(preview.costsInr).toBe(1995.35);
  });

  it("live: works the next month on NFO, hedges its fill in units, and opens a live position in lots", async () => {
    const reply = await ticket(nifty, {
      side: "BUY",
      lots: 2,
      onHedgeFail: "flatten",
      dryRun: false,
    });
    const id = reply.id as string;
    const work = await t.order(`${id}w1`);
    expect(work).toMatchObject({
      exchange: "NFO",
      tradingsymbol: NIFTY_NEXT,
      transaction_type: "BUY",
      quantity: 150,
      price: 24_151.5,
      product: "NRML",
    });
    t.kite.book.fill(work.order_id);
    const hedge = await t.order(`${id}h2`);
    expect(hedge).toMatchObject({
      exchange: "NFO",
      tradingsymbol: NIFTY_NEAR,
      transaction_type: "SELL",
      quantity: 150,
      price: 24_000.35,
    });
    t.kite.book.fill(hedge.order_id);
    const done = await t.until(id, "done");
    expect(done.orders).toMatchObject([
      { leg: "b", status: "complete", quantity: 150, filled: 150 },
      { leg: "a", status: "complete", quantity: 150, filled: 150 },
    ]);
    expect(done.spreadFilled).toBeCloseTo(151.15, 9);
    const position = await vi.waitFor(
      async () => {
        const positions = (await t.trader.get("/api/positions")).body.positions;
        const found = positions.find((p: { executionId: string }) => p.executionId === id);
        expect(found).toBeDefined();
        return found;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(position).toMatchObject({ spread: nifty, side: "BUY", lots: 2, live: true });
    expect(position.legs.a).toMatchObject({ price: 24_000.35, contract: NIFTY_NEAR });
  });

  it("is refused, with nothing sent, when a leg has no bid and ask on the hub", async () => {
    const before = t.kite.book.placements().length;
    const push = t.server.feed as unknown as { push(q: object): void };
    const send = (spread: string) =>
      t.trader.post("/api/executions", {
        spread,
        side: "BUY",
        lots: 1,
        onHedgeFail: "flatten",
        dryRun: false,
      });
    // NIFTY@far bids but nobody offers: no price to buy it at.
    quote();
    push.push({ source: "mcx", key: "NIFTY@far", bid: 24_300, ts: Date.now(), contract: "X" });
    const oneSided = await send(oneSidedSpread);
    expect(oneSided.status, JSON.stringify(oneSided.body)).toBe(409);
    expect(oneSided.body.error).toMatch(/NIFTY@far\).*no bid and ask/);
    // A NIFTY future added under NSE is quoted as a single price, as an index is.
    push.push({ source: "index", key: "NIFTYNSE", price: 24_000.5, ts: Date.now(), contract: "Y" });
    const single = await send(singlePriceSpread);
    expect(single.status, JSON.stringify(single.body)).toBe(409);
    expect(single.body.error).toMatch(/NIFTYNSE\).*no bid and ask.*as an NFO instrument/);
    expect(t.kite.book.placements()).toHaveLength(before);
  });
});

describe("a CDS calendar", () => {
  it("dry run: both legs on CDS, quantity in lots, prices on the 0.0025 tick", async () => {
    const reply = await ticket(usdinr, { side: "BUY", lots: 3, onHedgeFail: "alert" });
    // 83.2600 − 0.0025 is 83.25750000000001 in floats: written on the tick.
    expect(reply.requests.map((r: Json) => r.body)).toEqual([
      expect.objectContaining({
        tradingsymbol: USDINR_NEXT,
        exchange: "CDS",
        transaction_type: "BUY",
        quantity: "3",
        price: "83.42",
        product: "NRML",
      }),
      expect.objectContaining({
        tradingsymbol: USDINR_NEAR,
        exchange: "CDS",
        transaction_type: "SELL",
        quantity: "3",
        price: "83.2575",
        product: "NRML",
      }),
    ]);
  });
});
