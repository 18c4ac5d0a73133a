// Position alerts end to end through the public API (docs/user-guide.md "Positions (paper)"): a
// trader's BUY position on GC with a net ₹ target; the simulated GOLD price carries GC_SELL (its
// exit) past it, and the firing reaches the fake Telegram and the fake webhook receiver once and
// shows in the History; a stale leg holds the crossing until the legs are fresh again; another
// trader, with Telegram connected and a position of their own, is told nothing.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeTelegram } from "./fake-telegram.ts";
import { FakeWebhook, signatureVerifies } from "./fakes/fake-webhook.ts";
import { addTrader, signIn } from "./fakes/signed-in-trader.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";
import * as setup from "./telegram-trader.ts";

// biome-ignore lint/suspicious/noExplicitAny: the tests read raw JSON
type Json = any;

const SECRET = "a-webhook-secret-of-the-trader";
const OTHER_CHAT = "5151";
/** GOLD's bid before the move: GC_SELL's value here is where the positions are entered. */
const GOLD_BID = 76_000;

let telegram: FakeTelegram;
let receiver: FakeWebhook;
let server: TestServer;
let feed: ReturnType<typeof manualFeed>;
let trader: HttpClient;
let other: HttpClient;
let clock = Date.UTC(2026, 10, 24, 6, 0);

// A server per test: the legs' last prices (and GOLD's contract, which one test rolls) are the
// server's, and a test's crossing depends on where the previous quote left them.
beforeEach(async () => {
  [telegram, receiver] = await Promise.all([new FakeTelegram().start(), new FakeWebhook().start()]);
  feed = manualFeed();
  server = await startTestServer({
    // A one-second silence window, so a leg goes stale within a test.
    feed: Object.assign(feed, { staleAfterMs: 1_000 }),
    env: {
      ...setup.telegramEnv(telegram),
      WEBHOOK_ALLOW_PRIVATE: "true",
      FEED_SILENCE_SECONDS: "1",
    },
  });
  const admin = await signIn(server, ADMIN.username, ADMIN.password);
  trader = await addTrader(server, admin, "trader");
  other = await addTrader(server, admin, "other");
  expect((await trader.post("/api/telegram/connect", { chatId: setup.CHAT })).status).toBe(200);
  expect((await other.post("/api/telegram/connect", { chatId: OTHER_CHAT })).status).toBe(200);
  expect((await trader.put("/api/webhook", { url: receiver.url, secret: SECRET })).status).toBe(
    200,
  );
});
afterEach(async () => {
  await server.stop();
  await Promise.all([telegram.stop(), receiver.stop()]);
});

/** Every leg quoted now (fresh), GOLD at `bid`; returns GC_SELL once the server has it. */
async function quote(bid: number, legs = true): Promise<number> {
  clock += 1_000;
  if (legs) {
    feed.push({ source: "fx", key: "USDINR", price: 84, ts: clock });
    feed.push({ source: "cme", key: "GC", bid: 2650, ask: 2651, ts: clock });
  }
  feed.push({ source: "mcx", key: "GOLD", bid, ask: bid + 10, ts: clock });
  const body = await eventually(
    async () => (await fetch(`${server.url}/api/calculations`)).json() as Promise<Json>,
    (b) => b.GC_SELL !== undefined && b.timestamp === clock,
    "the quote in /api/calculations",
  );
  await server.services.alertEngine.idle();
  await server.services.positionAlerts.idle();
  return body.GC_SELL.spread;
}

/** A BUY of `lots` GC entered at GC_SELL's value now, with these levels. */
async function open(client: HttpClient, entry: number, fields: Record<string, unknown>) {
  const res = await client.post("/api/positions", {
    spread: "GC",
    side: "BUY",
    lots: 1,
    entry,
    ...fields,
  });
  expect(res.status).toBe(201);
  return res.body as Json;
}

/** The position alerts' messages a chat received (the connection message left out). */
const positionTexts = (chat: string) =>
  telegram.textsTo(chat).filter((t) => t.startsWith("🎯") || t.startsWith("🛑"));

async function delivered() {
  await server.services.positionAlerts.idle();
  await eventually(
    async () =>
      (await server.services.store.outbox.list()).filter(
        (m) => m.sentAt === null && m.failedAt === null,
      ),
    (rows) => rows.length === 0,
    "the outbox to settle",
    15_000,
  );
}

describe("a position's target", () => {
  it("fires once on Telegram and the webhook, shows in the History, and tells nobody else", async () => {
    const entry = await quote(GOLD_BID);
    // GOLD is priced per 10 g and a lot is 1 kg: 100 units, so +₹100 on GOLD is about +₹10,000.
    const mine = await open(trader, entry, { targetInr: 5_000, stopInr: -5_000 });
    expect(mine.units).toBe(100);
    // The other trader's position on the same spread never reaches its levels.
    await open(other, entry, { targetInr: 1_000_000, stopInr: -1_000_000 });
    // The trader's own position on GC without levels: nothing to watch.
    await open(trader, entry, {});
    await quote(GOLD_BID + 20); // about +₹2,000 gross: below the target
    const crossed = await quote(GOLD_BID + 100); // about +₹10,000: past it
    await quote(GOLD_BID + 110); // still past it: no second firing
    await delivered();

    const texts = positionTexts(setup.CHAT);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/^🎯 BUY 1 × GC: net ₹[\d,.]+ reached target ₹5,000$/);
    expect(positionTexts(OTHER_CHAT)).toEqual([]);
    expect(telegram.textsTo(OTHER_CHAT).some((t) => t.includes("GC"))).toBe(false);

    expect(receiver.received).toHaveLength(1);
    const [post] = receiver.received;
    if (!post) throw new Error("no POST");
    expect(signatureVerifies(SECRET, post)).toBe(true);
    expect(post.headers["x-spreadwatch-event"]).toBe("position.alert");
    const body = JSON.parse(post.body);
    expect(body).toMatchObject({
      event: "position.alert",
      positionId: mine.id,
      spread: "GC",
      name: "GC",
      side: "BUY",
      lots: 1,
      kind: "target",
      symbol: "GC_SELL",
      mark: crossed,
      thresholdInr: 5_000,
      direction: "above",
      text: texts[0],
    });
    expect(body.netInr).toBeGreaterThanOrEqual(5_000);
    expect(post.headers["idempotency-key"]).toBe(`spreadwatch-firing-${body.firingId}`);
    // The figure the Positions tab shows at that mark is the one the message names.
    const view = (await trader.get(`/api/positions/${mine.id}`)).body;
    expect(view.markSymbol).toBe("GC_SELL");

    const history = (await trader.get("/api/alerts/history")).body.entries;
    expect(history).toEqual([
      expect.objectContaining({
        id: body.firingId,
        alertId: null,
        symbol: "GC_SELL",
        metric: "net",
        value: body.netInr,
        threshold: 5_000,
        direction: "above",
        state: "fired",
        source: "server",
        note: texts[0]?.slice(3),
        channels: expect.arrayContaining([
          { channel: "telegram", state: "sent", attempts: 1 },
          { channel: "webhook", state: "sent", attempts: 1 },
        ]),
      }),
    ]);
    // Nothing of it in the other trader's History.
    expect((await other.get("/api/alerts/history")).body.entries).toEqual([]);
  });

  it("fires a stop, and again after net ₹ has come back and crossed anew", async () => {
    const entry = await quote(GOLD_BID);
    await open(trader, entry, { stopInr: -3_000 });
    await quote(GOLD_BID - 50); // about −₹5,000: the stop
    await quote(GOLD_BID); // back above it by far more than the re-arm distance
    await quote(GOLD_BID - 60); // and down through it again
    await delivered();
    const texts = positionTexts(setup.CHAT);
    expect(texts).toHaveLength(2);
    for (const text of texts)
      expect(text).toMatch(/^🛑 BUY 1 × GC: net -₹[\d,.]+ fell to stop -₹3,000$/);
  });

  it("is held while a leg is stale, in the History only, and fires on fresh prices", async () => {
    const entry = await quote(GOLD_BID);
    await open(trader, entry, { targetInr: 5_000 });
    await quote(GOLD_BID + 10);
    // Nothing from GC and USDINR for longer than the window: the server says so itself.
    const client = new HttpClient(server.url);
    await eventually(
      () => client.get("/api/health"),
      (res) => res.body?.prices?.fresh === false,
      "the feed to go quiet past FEED_SILENCE_SECONDS",
    );
    // GOLD alone moves past the target: held, noted once.
    await quote(GOLD_BID + 100, false);
    await quote(GOLD_BID + 110, false);
    const held = await eventually(
      async () => (await trader.get("/api/alerts/history")).body.entries as Json[],
      (entries) => entries.length > 0,
      "the held History entry",
    );
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ state: "held", metric: "net", threshold: 5_000, channels: [] });
    expect(held[0].note).toMatch(
      /^BUY 1 × GC: net ₹[\d,.]+ reached target ₹5,000\. Held: (CME GC|USDINR) quote stale \(no quote for \d+ s\)$/,
    );
    expect(await server.services.store.outbox.list()).toEqual([]);
    expect(positionTexts(setup.CHAT)).toEqual([]);
    // Fresh prices on every leg: the crossing fires now.
    await quote(GOLD_BID + 110);
    await delivered();
    expect(positionTexts(setup.CHAT)).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    const states = (await trader.get("/api/alerts/history")).body.entries.map((e: Json) => e.state);
    expect(states).toEqual(["fired", "held"]);
  });

  it("is held, not fired, when GOLD's feed rolls to the next contract at a higher price", async () => {
    const goldOn = async (bid: number, contract: string) => {
      clock += 1_000;
      feed.push({ source: "fx", key: "USDINR", price: 84, ts: clock });
      feed.push({ source: "cme", key: "GC", bid: 2650, ask: 2651, ts: clock });
      feed.push({ source: "mcx", key: "GOLD", bid, ask: bid + 10, ts: clock, contract });
      const body = await eventually(
        async () => (await fetch(`${server.url}/api/calculations`)).json() as Promise<Json>,
        (b) => b.timestamp === clock,
        "the quote in /api/calculations",
      );
      await server.services.alertEngine.idle();
      await server.services.positionAlerts.idle();
      return body.GC_SELL.spread as number;
    };
    const entry = await goldOn(GOLD_BID, "GOLD26DECFUT");
    const p = await open(trader, entry, { targetInr: 5_000 });
    expect(p.legs.m.contract).toBe("GOLD26DECFUT");
    await goldOn(GOLD_BID + 10, "GOLD26DECFUT");
    // February trades 800 higher: net would read ₹80,000 past entry, but it is another contract.
    await goldOn(GOLD_BID + 800, "GOLD26FEBFUT");
    await goldOn(GOLD_BID + 810, "GOLD26FEBFUT");
    const held = await eventually(
      async () => (await trader.get("/api/alerts/history")).body.entries as Json[],
      (entries) => entries.length > 0,
      "the held History entry",
    );
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ state: "held", metric: "net", channels: [] });
    expect(held[0].note).toMatch(/Held: GOLD now quotes GOLD26FEBFUT, not the GOLD26DECFUT held/);
    expect(await server.services.store.outbox.list()).toEqual([]);
    expect(positionTexts(setup.CHAT)).toEqual([]);
  });

  it("follows an edit: a target set past the net does not fire until net comes back and crosses", async () => {
    const entry = await quote(GOLD_BID);
    const mine = await open(trader, entry, {});
    await quote(GOLD_BID + 100); // about +₹10,000, no levels yet
    const patched = await trader.request("PATCH", `/api/positions/${mine.id}`, {
      body: { targetInr: 5_000 },
    });
    expect(patched.status).toBe(200);
    await server.services.positionAlerts.idle();
    await eventually(
      async () => server.services.positionAlerts.watchedCount,
      (n) => n === 1,
      "the edited position to be watched",
    );
    await quote(GOLD_BID + 110); // already past the new target when it was set: no firing
    await quote(GOLD_BID); // back well below
    await quote(GOLD_BID + 100); // and up through it
    await delivered();
    expect(positionTexts(setup.CHAT)).toHaveLength(1);
    // A closed position is watched no more.
    const closed = await trader.post(`/api/positions/${mine.id}/close`, { price: entry + 100 });
    expect(closed.status).toBe(200);
    await eventually(
      async () => server.services.positionAlerts.watchedCount,
      (n) => n === 0,
      "the closed position to leave the watch",
    );
  });
});
