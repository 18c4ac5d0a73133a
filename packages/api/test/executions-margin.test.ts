// The ticket's margin (docs/user-guide.md "Live orders"): Kite's basket margin of both legs
// together, asked with the trader's own Kite session, against a fake Kite on loopback that
// records what it was asked. The calendar's server quotes no USDINR: an all-MCX spread needs none.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { KITE_KEY } from "./fakes/fake-kite.ts";
import { type LiveOrdersContext, NEAR, NEXT, startLiveOrders } from "./fakes/live-orders.ts";

let t: LiveOrdersContext;

beforeAll(async () => {
  t = await startLiveOrders();
});
afterAll(() => t.stop());

/** GOLD's lot is 100 quote units (₹ per 10 g × 100 = 1 kg). */
const GOLD_UNITS = 100;

describe("the ticket's margin", () => {
  it("is Kite's basket margin of both legs in one request, with the trader's own session", async () => {
    const before = t.kite.marginRequests.length;
    const reply = await t.ticket({ side: "BUY", lots: 2, onHedgeFail: "flatten" });
    const asked = t.kite.marginRequests.slice(before);
    expect(asked).toHaveLength(1);
    const basket = asked[0];
    // The trader's own token (Profile → Connect Kite), not the admin's market-data login.
    expect(basket?.authorization).toBe(`token ${KITE_KEY}:tok-trader`);
    expect(basket?.query).toMatchObject({ consider_positions: "true" });
    const price = (leg: string) =>
      Number(reply.requests.find((r: { leg: string }) => r.leg === leg).body.price);
    expect(basket?.orders).toEqual([
      expect.objectContaining({
        exchange: "MCX",
        tradingsymbol: NEXT,
        transaction_type: "BUY",
        order_type: "LIMIT",
        quantity: 2,
        price: price("b"),
      }),
      expect.objectContaining({
        exchange: "MCX",
        tradingsymbol: NEAR,
        transaction_type: "SELL",
        order_type: "LIMIT",
        quantity: 2,
        price: price("a"),
      }),
    ]);
    // The fake's answer: 10 % of each order's value initially; the calendar keeps 30 % of the
    // larger side once Kite's spread benefit is taken.
    const buy = price("b") * 2 * GOLD_UNITS * t.kite.marginRate;
    const sell = price("a") * 2 * GOLD_UNITS * t.kite.marginRate;
    expect(reply.margin).toEqual({
      source: "kite",
      inr: expect.closeTo(Math.max(buy, sell) * t.kite.spreadKeeps, 2),
      initialInr: expect.closeTo(buy + sell, 2),
      at: expect.any(Number),
    });
    expect(reply.marginNote).toBeNull();
    expect(t.kite.book.placements()).toEqual([]);
  });

  it("says why when Kite cannot answer, and the dry run's requests still come", async () => {
    t.kite.failNextMargins.push(500, 500);
    try {
      const reply = await t.ticket({ side: "SELL", lots: 1, onHedgeFail: "alert" });
      expect(reply.requests).toHaveLength(2);
      expect(reply.margin).toBeNull();
      expect(reply.marginNote).toMatch(/Kite answered HTTP 500/);
    } finally {
      t.kite.failNextMargins.length = 0;
    }
  });

  it("previews the lots the ticket sends and the dry run's own margin, for a calendar whose legs name no lots", async () => {
    // The fixture's calendar `b - a` gives its legs no lots; the ticket sends 1 lot each per
    // ticket lot, and the preview says so with Kite's margin for those very orders.
    const input = encodeURIComponent(
      JSON.stringify({ spread: t.symbol, side: "BUY", lots: 2, payUpTicks: 1 }),
    );
    const preview = await vi.waitFor(
      async () => {
        t.quote();
        const reply = await t.trader.get(`/api/trpc/executions.preview?input=${input}`);
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        return reply.body.result.data;
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(preview.legs).toEqual([
      expect.objectContaining({ leg: "b", tradingsymbol: NEXT, side: "BUY", lots: 2, quantity: 2 }),
      expect.objectContaining({
        leg: "a",
        tradingsymbol: NEAR,
        side: "SELL",
        lots: 2,
        quantity: 2,
      }),
    ]);
    const dryRun = await t.ticket({ side: "BUY", lots: 2, payUpTicks: 1, onHedgeFail: "flatten" });
    expect(dryRun.legs).toEqual(preview.legs);
    expect(preview.margin).toMatchObject({ source: "kite" });
    expect(preview.margin.inr).toBe(dryRun.margin.inr);
    expect(preview.margin.initialInr).toBe(dryRun.margin.initialInr);
    // The round trip of those 2 + 2 GOLD lots costs something (a position of this definition,
    // whose legs name no lots, would cost ₹0).
    expect(preview.costsInr).toBeGreaterThan(0);
    expect(t.kite.book.placements()).toEqual([]);
  });

  it("is the configured figure in the positions preview of an all-MCX calendar without USDINR", async () => {
    // Legs with lots (the fixture's calendar has none: its legs block nothing in a position).
    const created = await t.trader.post("/api/spreads", {
      name: "Gold calendar in lots",
      legs: [
        { name: "a", instrument: "GOLD", lots: 1 },
        { name: "b", instrument: "GOLD@next", lots: 1 },
      ],
      formula: "b - a",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const input = encodeURIComponent(
      JSON.stringify({ spread: created.body.symbol, side: "BUY", lots: 1 }),
    );
    const margin = await vi.waitFor(
      async () => {
        t.quote();
        const preview = await t.trader.get(`/api/trpc/positions.preview?input=${input}`);
        expect(preview.status, JSON.stringify(preview.body)).toBe(200);
        const { costsInr, margin } = preview.body.result.data;
        // The definition's value is published (its costs are then known) before margin counts.
        expect(costsInr).toBeGreaterThan(0);
        return margin;
      },
      { timeout: 10_000, interval: 200 },
    );
    // Both GOLD legs at 10 % of a kilo's value (core's default MCX share; no admin Kite login).
    expect(margin).toMatchObject({ source: "configured" });
    expect(margin.inr).toBeGreaterThan(2 * 127_000 * GOLD_UNITS * 0.1 * 0.99);
  });
});
