// Live orders through the trader's own Kite with the leg guard (docs/user-guide.md "Live orders"), against
// a fake Kite on loopback that speaks Kite Connect v3's order API: the dry run, the happy path,
// a rejected hedge flattened or alerted, a lost answer looked up by tag, a 429, the kill switch
// and a restart mid-campaign. Each asserts what Kite received, not only what the API says.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ExecutionEngine } from "../src/executions/engine.ts";
import { KiteLinks } from "../src/executions/kite-link.ts";
import { type LiveOrdersContext, NEAR, NEXT, startLiveOrders } from "./fakes/live-orders.ts";
import { addTrader } from "./fakes/signed-in-trader.ts";
import { CHAT } from "./telegram-trader.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let t: LiveOrdersContext;

beforeAll(async () => {
  t = await startLiveOrders();
});
afterAll(() => t.stop());

describe("an order ticket", () => {
  it("by default is a dry run: the exact requests, nothing sent", async () => {
    const reply = await t.ticket({ side: "BUY", lots: 1, onHedgeFail: "flatten" });
    expect(reply).toMatchObject({ id: null, dryRun: true, status: "dry-run" });
    // BUY next − near: buy the next month (the thinner book) at its ask, then sell the near at
    // its bid less one pay-up tick.
    expect(reply.requests).toEqual([
      {
        leg: "b",
        method: "POST",
        path: "/orders/regular",
        body: expect.objectContaining({
          tradingsymbol: NEXT,
          exchange: "MCX",
          transaction_type: "BUY",
          order_type: "LIMIT",
          quantity: "1",
          price: "127540",
          product: "NRML",
        }),
      },
      {
        leg: "a",
        method: "POST",
        path: "/orders/regular",
        body: expect.objectContaining({
          tradingsymbol: NEAR,
          transaction_type: "SELL",
          order_type: "LIMIT",
          quantity: "1",
          price: "126999",
        }),
      },
    ]);
    for (const request of reply.requests) expect(request.body.tag.length).toBeLessThanOrEqual(20);
    expect(t.kite.book.placements()).toEqual([]);
  });

  it("is refused with 409 and the reason before anything is sent", async () => {
    const base = { spread: t.symbol, side: "BUY", onHedgeFail: "flatten", dryRun: false };
    const over = await t.trader.post("/api/executions", { ...base, lots: 11 });
    expect(over.status).toBe(409);
    expect(over.body.error).toContain("at most 10 lots");
    const cme = await t.trader.post("/api/executions", { ...base, spread: "GC", lots: 1 });
    expect(cme.status).toBe(409);
    expect(cme.body.error).toMatch(/not traded on Kite.*never CME/);
    const stranger = await t.trader.post("/api/executions", { ...base, lots: 1, positionId: 999 });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error).toContain("positionId");
    const bad = await t.trader.post("/api/executions", { ...base, lots: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("lots");
    expect(t.kite.book.placements()).toEqual([]);
  });
});

describe("Connect Kite", () => {
  it("links the trader's own Kite through Kite's login, for a login started here only", async () => {
    const other = await addTrader(t.server, t.admin, "other");
    const before = await other.get("/api/profile/kite");
    expect(before.body).toMatchObject({ linked: false, liveOrders: false, maxLots: 10 });
    const login = await other.get("/api/profile/kite/login");
    expect(login.status).toBe(302);
    const location = new URL(String(login.headers.location));
    expect(location.pathname).toBe("/connect/login");
    const back = new URLSearchParams(location.searchParams.get("redirect_params") ?? "");
    expect(back.get("for")).toBe("profile");
    t.kite.requestTokens.set("req-other", "tok-other");
    t.kite.requestUsers.set("req-other", "OT0001");
    const callback = (state: string) =>
      other.get(`/api/kite/callback?request_token=req-other&state=${state}&for=profile`);
    const forged = await callback("x".repeat(32));
    expect(forged.status).toBe(400);
    const linked = await callback(back.get("state") ?? "");
    expect(linked.status).toBe(302);
    expect(linked.headers.location).toBe("/profile?kite=connected");
    const after = await other.get("/api/profile/kite");
    expect(after.body).toMatchObject({ linked: true, kiteUserId: "OT0001", expired: false });
    expect(after.body.expiresAt).toBeGreaterThan(Date.now());
    // The token itself is stored encrypted, never as sent.
    const stored = await t.server.services.store.keyValues.get("kite.link.3");
    expect(JSON.stringify(stored)).not.toContain("tok-other");
    expect((await other.delete("/api/profile/kite")).status).toBe(200);
    expect((await other.get("/api/profile/kite")).body.linked).toBe(false);
  });
});

describe("a live campaign", () => {
  it("works the first leg, hedges its fill, and reports the fills and slippage", async () => {
    const reply = await t.ticket({ side: "BUY", lots: 1, onHedgeFail: "flatten", dryRun: false });
    expect(reply).toMatchObject({ status: "working", dryRun: false });
    const id = reply.id as string;
    const work = await t.order(`${id}w1`);
    expect(work).toMatchObject({ tradingsymbol: NEXT, transaction_type: "BUY", price: 127_540 });
    t.kite.book.fill(work.order_id);
    const hedge = await t.order(`${id}h2`);
    expect(hedge).toMatchObject({ tradingsymbol: NEAR, transaction_type: "SELL", price: 126_999 });
    t.kite.book.fill(hedge.order_id);
    const done = await t.until(id, "done");
    // Target 540 (127540 − 127000); filled 127540 − 126999 = 541: one tick worse for a buyer.
    expect(done).toMatchObject({ target: 540, spreadFilled: 541, slippageTicks: 1 });
    expect(done.orders).toMatchObject([
      { leg: "b", tag: `${id}w1`, status: "complete", filled: 1, averagePrice: 127_540 },
      { leg: "a", tag: `${id}h2`, status: "complete", filled: 1, averagePrice: 126_999 },
    ]);
    expect(t.kite.book.placements().filter((r) => r.form.tag?.startsWith(id))).toHaveLength(2);
    // Its fills open a live position at the real fills, marked like a paper one.
    const position = await livePosition(id);
    expect(position).toMatchObject({
      spread: t.symbol,
      side: "BUY",
      lots: 1,
      entry: 541,
      live: true,
      slippageTicks: 1,
      status: "open",
      legs: {
        b: { instrument: expect.any(String), price: 127_540, contract: NEXT },
        a: { instrument: expect.any(String), price: 126_999, contract: NEAR },
      },
    });
    expect(position.mark).toEqual(expect.any(Number));
    expect(position.netInr).toEqual(expect.any(Number));
  });

  it("adds to the live position it was opened from at the real fills; the opposite side reduces it", async () => {
    const opening = await t.ticket({ side: "BUY", lots: 1, onHedgeFail: "flatten", dryRun: false });
    await fillBoth(opening.id);
    const held = await livePosition(opening.id);
    expect(held).toMatchObject({ lots: 1, entry: 541 });
    const adding = await t.ticket({
      side: "BUY",
      lots: 2,
      onHedgeFail: "flatten",
      dryRun: false,
      positionId: held.id,
    });
    // Filled two ticks better on the next month: 127538 − 126999 = 539.
    await fillBoth(adding.id, 127_538);
    const added = await vi.waitFor(
      async () => {
        const found = await positionById(held.id);
        expect(found.lots).toBe(3);
        return found;
      },
      { timeout: 15_000, interval: 100 },
    );
    // (1 × 541 + 2 × 539) / 3; each leg's fill averaged by lots the same way.
    expect(added).toMatchObject({ live: true, executionId: opening.id, status: "open" });
    expect(added.entry).toBeCloseTo(1619 / 3, 9);
    expect(added.legs.b.price).toBeCloseTo((127_540 + 2 * 127_538) / 3, 9);
    expect(added.legs.a.price).toBe(126_999);
    // Its own row would be a second position: none was opened.
    expect(await campaignPosition(adding.id)).toBeUndefined();
    const reducing = await t.ticket({
      side: "SELL",
      lots: 1,
      onHedgeFail: "flatten",
      dryRun: false,
      positionId: held.id,
    });
    await fillBoth(reducing.id);
    const reduced = await vi.waitFor(
      async () => {
        const found = await positionById(held.id);
        expect(found.lots).toBe(2);
        return found;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(reduced.entry).toBeCloseTo(1619 / 3, 9);
    expect(reduced.realisedInr).toEqual(expect.any(Number));
    expect(await campaignPosition(reducing.id)).toBeUndefined();
  });

  it("reminds a trader with live work once, half an hour before their Kite session ends", async () => {
    const opening = await t.ticket({ side: "BUY", lots: 1, onHedgeFail: "flatten", dryRun: false });
    await fillBoth(opening.id);
    await livePosition(opening.id);
    // A session of the trader's ending at 06:00 IST on a fixed day; the clock is set against it.
    // The day is past, so the leader's own once-a-minute look never reminds of it, and the
    // Telegram row it queues is due at once.
    const { services } = t.server;
    const ends = Date.UTC(2025, 0, 15, 0, 30);
    await new KiteLinks(services.store, services.auth.password).save(2, {
      accessToken: "tok-trader",
      userId: "TR0001",
      savedAt: ends - 20 * HOUR,
      expiresAt: ends,
    });
    const reminders = (services.executions as ExecutionEngine).sessionReminders;
    if (!reminders) throw new Error("the server composes no session reminders");
    const reminded = () => t.telegram.textsTo(CHAT).filter((m) => m.includes("Kite session ends"));
    expect(await reminders.remind(ends - 31 * MINUTE)).toEqual([]);
    expect(await reminders.remind(ends - 29 * MINUTE)).toEqual([2]);
    // The next looks within the same session tell nobody again.
    expect(await reminders.remind(ends - 28 * MINUTE)).toEqual([]);
    expect(await reminders.remind(ends - MINUTE)).toEqual([]);
    await t.kite.until(() => reminded().length > 0, "the reminder on Telegram", 15_000);
    expect(reminded()).toEqual([expect.stringMatching(/ends at 06:00 IST, in 29 min/)]);
    const history = await t.trader.get("/api/alerts/history");
    expect(JSON.stringify(history.body)).toContain("Your Kite session ends at 06:00 IST");
    // A trader without live work (user 3 has none) is not told, even with a session ending.
    await new KiteLinks(services.store, services.auth.password).save(3, {
      accessToken: "tok-other",
      userId: "OT0001",
      savedAt: ends - 20 * HOUR,
      expiresAt: ends + DAY,
    });
    expect(await reminders.remind(ends + DAY - 10 * MINUTE)).toEqual([]);
    // The trader's session of today again, for the tests after this one.
    const linked = await t.trader.put("/api/profile/kite", { requestToken: "req-trader" });
    expect(linked.body).toMatchObject({ linked: true, expired: false });
  });

  it("flattens the filled leg when Kite rejects the hedge", async () => {
    t.kite.book.policy = (order) =>
      order.tradingsymbol === NEAR ? { reject: "Insufficient funds" } : "rest";
    try {
      const { id } = await t.ticket({
        side: "BUY",
        lots: 1,
        onHedgeFail: "flatten",
        dryRun: false,
      });
      const work = await t.order(`${id}w1`);
      t.kite.book.policy = (order) =>
        order.tradingsymbol === NEAR ? { reject: "Insufficient funds" } : "fill";
      t.kite.book.fill(work.order_id);
      const flatten = await t.order(`${id}f3`);
      expect(flatten).toMatchObject({
        tradingsymbol: NEXT,
        transaction_type: "SELL",
        order_type: "MARKET",
        quantity: 1,
        status: "COMPLETE",
      });
      const body = await t.until(id, "flattened");
      expect(body.tripped).toContain("Insufficient funds");
      // Nothing is held after the flatten: no live position.
      const positions = (await t.trader.get("/api/positions")).body.positions;
      expect(positions.filter((p: { executionId: string }) => p.executionId === id)).toEqual([]);
    } finally {
      t.kite.book.policy = () => "rest";
    }
  });

  it("leaves the leg and alerts when the ticket chose so", async () => {
    t.kite.book.policy = (order) =>
      order.tradingsymbol === NEAR ? { reject: "Price band exceeded" } : "rest";
    try {
      const { id } = await t.ticket({ side: "BUY", lots: 1, onHedgeFail: "alert", dryRun: false });
      const work = await t.order(`${id}w1`);
      t.kite.book.fill(work.order_id);
      const body = await t.until(id, "naked");
      expect(body.events.map((e: { text: string }) => e.text).join("\n")).toMatch(
        /alert: 1 of the first leg is unhedged/,
      );
      // Told at once on the trader's channels: Telegram and the webhook, and in History.
      await expectNakedLegTold(id, /Naked leg: BUY 1 × SP\d+ .*1 of GOLD26APRFUT \(BUY\) unhedged/);
      // Nothing placed after the rejected hedge: no flatten, no second hedge. Kite holds the
      // campaign's orders, each once (a request it answered 429 placed nothing, so the book, not
      // the requests, is what a doubled order shows in).
      const held = [...t.kite.book.orders.values()].flatMap((o) =>
        o.tag?.startsWith(id) ? [o.tag] : [],
      );
      expect(held).toEqual([`${id}w1`, `${id}h2`]);
      const sent = new Set(t.kite.book.placements().map((r) => r.form.tag));
      expect([...sent].filter((tag) => tag?.startsWith(id))).toEqual([`${id}w1`, `${id}h2`]);
    } finally {
      t.kite.book.policy = () => "rest";
    }
  });

  it("looks a placement whose answer was lost up by its tag instead of sending it again", async () => {
    t.kite.book.placeFaults.push("lost");
    const { id } = await t.ticket({ side: "BUY", lots: 1, onHedgeFail: "flatten", dryRun: false });
    const work = await t.order(`${id}w1`);
    // The answer never came: the engine gives up on it, reads the orderbook, finds the tag.
    await expectOrderAdopted(id, work.order_id);
    t.kite.book.fill(work.order_id);
    t.kite.book.fill((await t.order(`${id}h2`)).order_id);
    await t.until(id, "done");
    expect(t.kite.book.tagged(`${id}w1`)).toHaveLength(1);
    expect(t.kite.book.placements().filter((r) => r.form.tag === `${id}w1`)).toHaveLength(1);
  });

  it("backs off on 429 and sends the order once Kite lets it", async () => {
    t.kite.book.placeFaults.push({ status: 429, message: "Too many requests" });
    const { id } = await t.ticket({ side: "BUY", lots: 1, onHedgeFail: "flatten", dryRun: false });
    const work = await t.order(`${id}w1`);
    const tries = t.kite.book.placements().filter((r) => r.form.tag === `${id}w1`);
    expect(tries).toHaveLength(2);
    // Held back at least the back-off after the 429 (a floor, not a timing bound).
    expect((tries[1]?.at ?? 0) - (tries[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    expect(t.kite.book.tagged(`${id}w1`)).toHaveLength(1);
    await cancelAndSettle(id, work.order_id);
  });

  it("stops at the kill switch mid-campaign: cancels what rests, sends nothing more", async () => {
    const { id } = await t.ticket({ side: "BUY", lots: 2, onHedgeFail: "flatten", dryRun: false });
    const work = await t.order(`${id}w1`);
    t.kite.book.fill(work.order_id, 1);
    t.kite.book.fill((await t.order(`${id}h2`)).order_id);
    expect((await t.admin.put("/api/admin/live-orders", { enabled: false })).status).toBe(200);
    try {
      const body = await t.until(id, "cancelled");
      expect(t.kite.book.orders.get(work.order_id)?.status).toBe("CANCELLED");
      expect(body.orders.map((o: { tag: string }) => o.tag)).toEqual([`${id}w1`, `${id}h2`]);
      const refused = await t.trader.post("/api/executions", {
        spread: t.symbol,
        side: "BUY",
        lots: 1,
        onHedgeFail: "flatten",
        dryRun: false,
      });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toContain("switched off");
    } finally {
      await t.admin.put("/api/admin/live-orders", { enabled: true });
    }
  });

  it("after a restart mid-campaign, reconciles from Kite's orderbook without sending again", async () => {
    // A hedge time a loaded machine's restart cannot outlast: this is about the restart alone.
    const { id } = await t.ticket({
      side: "BUY",
      lots: 1,
      onHedgeFail: "flatten",
      dryRun: false,
      hedgeTimeoutMs: 120_000,
    });
    const work = await t.order(`${id}w1`);
    await t.until(id, "working");
    const before = t.kite.book.placements().length;
    // Filled while the server was down.
    await t.restart(() => t.kite.book.fill(work.order_id));
    const hedge = await t.order(`${id}h2`);
    t.kite.book.fill(hedge.order_id);
    await t.until(id, "done");
    const after = t.kite.book.placements().slice(before);
    expect(after.map((r) => r.form.tag)).toEqual([`${id}h2`]);
  });

  it("is another user's 404, for admins too", async () => {
    const { id } = await t.ticket({ side: "BUY", lots: 1, onHedgeFail: "flatten", dryRun: false });
    expect((await t.admin.get(`/api/executions/${id}`)).status).toBe(404);
    expect((await t.admin.post(`/api/executions/${id}/cancel`)).status).toBe(404);
    const work = await t.order(`${id}w1`);
    await cancelAndSettle(id, work.order_id);
  });
});

/** The trader's live position opened by campaign `id`, once the settled campaign stored it. */
async function livePosition(id: string) {
  return vi.waitFor(
    async () => {
      const positions = (await t.trader.get("/api/positions")).body.positions;
      const found = positions.find((p: { executionId: string }) => p.executionId === id);
      expect(found).toBeDefined();
      return found;
    },
    { timeout: 15_000, interval: 100 },
  );
}

/** Fills campaign `id`'s working order (at `workPrice` if given), then its hedge. */
async function fillBoth(id: string, workPrice?: number) {
  const work = await t.order(`${id}w1`);
  t.kite.book.fill(work.order_id, undefined, workPrice);
  t.kite.book.fill((await t.order(`${id}h2`)).order_id);
  await t.until(id, "done");
}

async function positionById(id: number) {
  const positions = (await t.trader.get("/api/positions")).body.positions;
  return positions.find((p: { id: number }) => p.id === id);
}

async function campaignPosition(id: string) {
  const positions = (await t.trader.get("/api/positions")).body.positions;
  return positions.find((p: { executionId: string }) => p.executionId === id);
}

/** The naked leg of `id` reached Telegram and the webhook, and the trader's History lists it. */
async function expectNakedLegTold(id: string, text: RegExp) {
  await t.kite.until(
    () => t.telegram.textsTo(CHAT).some((m) => m.includes(id)),
    "the naked-leg Telegram message",
    15_000,
  );
  expect(t.telegram.textsTo(CHAT).find((m) => m.includes(id))).toMatch(text);
  await t.kite.until(
    () => t.webhook.received.some((r) => r.body.includes(id)),
    "the naked-leg webhook",
    15_000,
  );
  const hook = JSON.parse(t.webhook.received.find((r) => r.body.includes(id))?.body ?? "{}");
  expect(hook).toMatchObject({ event: "execution.naked", executionId: id, nakedQuantity: 1 });
  const history = await t.trader.get("/api/alerts/history");
  expect(JSON.stringify(history.body)).toContain(id);
}

async function expectOrderAdopted(id: string, orderId: string) {
  await vi.waitFor(
    async () => {
      const body = await t.execution(id);
      expect(body.orders[0]).toMatchObject({ tag: `${id}w1`, orderId, status: "open" });
    },
    { timeout: 15_000, interval: 100 },
  );
}

/** The trader cancels; the resting order is cancelled at Kite and the campaign ends. */
async function cancelAndSettle(id: string, orderId: string) {
  expect((await t.trader.post(`/api/executions/${id}/cancel`)).status).toBe(200);
  await t.until(id, "cancelled");
  expect(t.kite.book.orders.get(orderId)?.status).toBe("CANCELLED");
}
