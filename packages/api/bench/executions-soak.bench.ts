// Live orders under faults (docs/user-guide.md "Live orders"): campaigns one after another with
// the leader's ExecutionEngine on a real SQLite store and the fake Kite on loopback, each meeting
// random faults: a placement whose answer is lost (looked up by tag), 429s, a rejected hedge
// (flattened or alerted, as its ticket chose), and the leader replaced mid-campaign (stopped; a
// new engine on the same store reconciles from Kite's orderbook, as a new leader does). Counted
// from the fake Kite's own record: doubled orders (a tag placed twice) and unnoticed naked legs
// (a first leg's fill neither hedged nor flattened, with no alert raised). Both must be 0.
// kill -9 of the production server: executions-kill.bench.ts, beside this one.
//   BENCH_CAMPAIGNS=200 BENCH_SEED=1
import { loadavg } from "node:os";
import { initialGuardState } from "@spreadwatch/core";
import { ExecutionEngine } from "../src/executions/engine.ts";
import { OrderRate } from "../src/executions/order-rate.ts";
import type { CampaignDoc } from "../src/executions/ticket.ts";
import { FakeKite } from "../test/fakes/fake-kite.ts";
import { deskPolicy, kiteRecord, liveOrderDesk, placeFault } from "./live-order-desk.ts";

const CAMPAIGNS = Number(process.env.BENCH_CAMPAIGNS ?? 200);
let seed = Number(process.env.BENCH_SEED ?? 1);
/** A small deterministic generator: a run can be repeated with its seed. */
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const TERMINAL = new Set(["done", "flattened", "naked", "cancelled", "failed"]);

const kite = await new FakeKite().start();
const TRADERS = 10;
const { store, cleanup, links, liveOrders, hub } = await liveOrderDesk(kite, {
  traders: TRADERS,
  secret: "soak-secret-soak-secret-soak-secret",
  expiresAt: (t) => t + 6 * 3_600_000,
});
const alerted = new Set<string>();
const newEngine = () =>
  new ExecutionEngine({
    store,
    hub,
    kite: kite.settings(),
    links,
    liveOrders,
    rate: new OrderRate(),
    onAlert: async (row) => {
      alerted.add(row.id);
    },
  });
let engine = newEngine();
await engine.start();

const rejectHedgeOf = new Set<string>();
kite.book.policy = deskPolicy(rejectHedgeOf);

function doc(onHedgeFail: "flatten" | "alert"): CampaignDoc {
  const leg = (instrument: string, tradingsymbol: string) => ({
    instrument,
    exchange: "MCX",
    tradingsymbol,
    product: "NRML",
    tick: 1,
  });
  const guard = { payUpTicks: 1, hedgeTimeoutMs: 5_000, adverseTicks: 1_000, onHedgeFail };
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

async function until(what: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await what()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

const faults = { lost: 0, throttled: 0, rejected: 0, leaderReplaced: 0 };
let stuck = 0;
const started = Date.now();
for (let i = 0; i < CAMPAIGNS; i++) {
  const id = `sw${(0xa00000 + i).toString(16).padStart(12, "0")}`;
  const ownerId = (i % TRADERS) + 1;
  placeFault(kite.book, random, faults);
  if (random() < 0.2) {
    rejectHedgeOf.add(id);
    faults.rejected++;
  }
  await store.executions.create({
    id,
    ownerId,
    spread: "SP1",
    status: "working",
    doc: doc(random() < 0.5 ? "flatten" : "alert"),
    createdAt: Date.now(),
    updatedAt: Date.now(),
  });
  engine.wake();
  const rests = await until(
    () => kite.book.tagged(`${id}w1`).some((o) => o.status === "OPEN"),
    30_000,
  );
  const replace = random() < 0.1;
  if (rests) {
    const work = kite.book.tagged(`${id}w1`).find((o) => o.status === "OPEN");
    if (replace) {
      // The leader goes; the fill happens while none leads; a new one takes the campaign over.
      await engine.stop();
      kite.book.fill(work?.order_id ?? "");
      engine = newEngine();
      await engine.start();
      faults.leaderReplaced++;
    } else kite.book.fill(work?.order_id ?? "");
  }
  const settled = await until(
    async () => TERMINAL.has((await store.executions.get(id))?.status ?? ""),
    60_000,
  );
  if (!settled) stuck++;
}
await engine.stop();

// Counted from what the fake Kite holds, not from what the engine says.
const record = kiteRecord(kite.book, () => 1);
const { doubled } = record;
const naked = record.naked.length;
const unnoticed = record.naked.filter((id) => !alerted.has(id)).length;
const overQuantity = record.overQuantity.length;
await kite.stop();
await cleanup();
console.log(
  `live orders soak: ${CAMPAIGNS} campaigns in ${((Date.now() - started) / 1000).toFixed(0)} s with faults ${JSON.stringify(faults)}: doubled orders ${doubled}, over quantity ${overQuantity}, naked legs ${naked} (unnoticed ${unnoticed}), unsettled ${stuck}; load ${loadavg()[0]?.toFixed(2)}`,
);
console.log(
  `RESULT ${JSON.stringify({ bench: "executions-soak", campaigns: CAMPAIGNS, ...faults, doubled, overQuantity, naked, unnoticed, unsettled: stuck })}`,
);
