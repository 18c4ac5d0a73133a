// Kite's order updates as the hedge's trigger (docs/user-guide.md "Live orders"): the leader's
// engine on a real SQLite store against the fake Kite on loopback, its poll slowed to a minute,
// so only the order update can bring the fill. The hedge must go out on what the update says,
// without reading the orderbook first (GET /orders is a round trip on the fill → hedge path).
import { initialGuardState } from "@spreadwatch/core";
import { createTestStore } from "@spreadwatch/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExecutionEngine } from "../src/executions/engine.ts";
import { KiteLinks } from "../src/executions/kite-link.ts";
import { LiveOrders } from "../src/executions/live-orders.ts";
import { OrderRate } from "../src/executions/order-rate.ts";
import type { CampaignDoc } from "../src/executions/ticket.ts";
import type { MarketHub } from "../src/market/hub.ts";
import { FakeKite } from "./fakes/fake-kite.ts";

const TOKEN = "tok-updates";
const WAIT = 30_000;
let kite: FakeKite;
let engine: ExecutionEngine;
let store: ReturnType<typeof createTestStore>["store"];
let cleanup: () => Promise<void> | void;
let ownerId: number;

beforeAll(async () => {
  kite = await new FakeKite().start();
  ({ store, cleanup } = createTestStore());
  const user = await store.users.create({ username: "trader", passwordHash: "h" });
  ownerId = user.id;
  kite.validTokens.add(TOKEN);
  kite.book.addAccount(TOKEN, "TR0001");
  const now = Date.now();
  const links = new KiteLinks(store, "test-secret-test-secret-test-secret");
  // A session that lasts the test, whatever the time of day.
  await links.save(ownerId, {
    accessToken: TOKEN,
    userId: "TR0001",
    savedAt: now,
    expiresAt: now + 3_600_000,
  });
  const liveOrders = new LiveOrders(store);
  await liveOrders.update(ownerId, { enabled: true }, now);
  const prices = {
    mcx: {
      GOLD: { bid: 127_000, ask: 127_010, timestamp: now },
      "GOLD@next": { bid: 127_500, ask: 127_540, timestamp: now },
    },
  };
  engine = new ExecutionEngine({
    store,
    hub: { snapshot: () => ({ prices }) } as unknown as MarketHub,
    kite: kite.settings(),
    links,
    liveOrders,
    rate: new OrderRate(),
    pollMs: 60_000,
  });
  await engine.start();
});

afterAll(async () => {
  await engine?.stop();
  await kite?.stop();
  await cleanup?.();
});

function campaign(): CampaignDoc {
  const leg = (instrument: string, tradingsymbol: string) => ({
    instrument,
    exchange: "MCX",
    tradingsymbol,
    product: "NRML",
    tick: 1,
  });
  const guard = {
    payUpTicks: 1,
    hedgeTimeoutMs: 600_000,
    adverseTicks: 1_000,
    onHedgeFail: "flatten" as const,
  };
  return {
    ticket: { spread: "SP1", side: "BUY", lots: 1, ...guard },
    target: 540,
    guard: {
      work: { name: "b", side: "BUY", quantity: 1, tick: 1, price: 127_540 },
      hedge: { name: "a", side: "SELL", quantity: 1, tick: 1 },
      ...guard,
    },
    legs: { a: leg("GOLD", "GOLD26FEBFUT"), b: leg("GOLD@next", "GOLD26APRFUT") },
    state: initialGuardState(),
    events: [],
  };
}

const reads = () => kite.book.seen.filter((r) => r.method === "GET").length;

describe("an order update", () => {
  it("sends the hedge on the fill it reports, without reading the orderbook first", async () => {
    const id = "sw0000000000a1";
    await store.executions.create({
      id,
      ownerId,
      spread: "SP1",
      status: "working",
      doc: campaign(),
      createdAt: Date.now(),
      updatedAt: Date.now(),
    });
    engine.wake();
    // The first look reads the book and places the first leg; the ticker connects, and the look
    // on its opening reads the book once more. After that only an update can say anything.
    await kite.until(
      () => kite.book.tagged(`${id}w1`).length === 1 && kite.connections.length === 1,
      "the first leg and the ticker",
      WAIT,
    );
    await kite.until(() => reads() >= 2, "the look on the ticker's opening", WAIT);
    const readsBefore = reads();
    const work = kite.book.tagged(`${id}w1`)[0];
    kite.book.fill(work?.order_id ?? "");
    await kite.until(() => kite.book.tagged(`${id}h2`).length === 1, "the hedge", WAIT);
    expect(kite.book.tagged(`${id}h2`)[0]).toMatchObject({
      tradingsymbol: "GOLD26FEBFUT",
      transaction_type: "SELL",
      price: 126_999,
    });
    expect(reads()).toBe(readsBefore);
    expect(engine.updatePaths).toHaveLength(1);
  });
});
