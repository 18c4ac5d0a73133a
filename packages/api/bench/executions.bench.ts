// Live orders (docs/user-guide.md "Live orders"): fill event → hedge order sent, over 1,000 campaigns, with
// the leader's ExecutionEngine on a real SQLite store and the fake Kite on loopback (HTTP order
// API and the ticker's order updates). Each campaign's first leg is placed and rests; the fake
// fills it and takes the time; the engine hears the order update, reads the orderbook, decides,
// writes the campaign and sends the hedge; the fake takes the time the hedge's POST arrives.
// Both times are the fake's clock, in this process. The poll is slowed to 1 s so the figure is
// the order-update path's, not the poll's. Also printed: the engine's own part, from the update's
// arrival to the hedge's POST, in wall and CPU time (on a loaded machine the wall time is mostly
// waiting for a core; the CPU time is the path's own). Printed, never asserted.
//   BENCH_CAMPAIGNS=1000
import { loadavg } from "node:os";
import { initialGuardState } from "@spreadwatch/core";
import { ExecutionEngine } from "../src/executions/engine.ts";
import { OrderRate } from "../src/executions/order-rate.ts";
import type { CampaignDoc } from "../src/executions/ticket.ts";
import { kiteSessionExpiry } from "../src/feeds/providers/kite/session.ts";
import { FakeKite } from "../test/fakes/fake-kite.ts";
import { liveOrderDesk } from "./live-order-desk.ts";
import { summarize } from "./stats.ts";

const CAMPAIGNS = Number(process.env.BENCH_CAMPAIGNS ?? 1_000);
const P99_GOAL_MS = 50;

const kite = await new FakeKite().start();
// Kite's 10 orders/s per account: a campaign is two orders, so the traders take turns.
const TRADERS = 20;
const { store, cleanup, links, liveOrders, hub } = await liveOrderDesk(kite, {
  traders: TRADERS,
  secret: "bench-secret-bench-secret-bench-secret",
  expiresAt: kiteSessionExpiry,
});
const engine = new ExecutionEngine({
  store,
  hub,
  kite: kite.settings(),
  links,
  liveOrders,
  rate: new OrderRate(),
  pollMs: 1_000,
});
await engine.start();

function doc(): CampaignDoc {
  const leg = (instrument: string, tradingsymbol: string) => ({
    instrument,
    exchange: "MCX",
    tradingsymbol,
    product: "NRML",
    tick: 1,
  });
  return {
    ticket: {
      spread: "SP1",
      side: "BUY",
      lots: 1,
      payUpTicks: 1,
      hedgeTimeoutMs: 60_000,
      adverseTicks: 1_000,
      onHedgeFail: "flatten",
    },
    target: 540,
    guard: {
      work: { name: "b", side: "BUY", quantity: 1, tick: 1, price: 127_540 },
      hedge: { name: "a", side: "SELL", quantity: 1, tick: 1 },
      payUpTicks: 1,
      hedgeTimeoutMs: 60_000,
      adverseTicks: 1_000,
      onHedgeFail: "flatten",
    },
    legs: { a: leg("GOLD", "GOLD26FEBFUT"), b: leg("GOLD@next", "GOLD26APRFUT") },
    state: initialGuardState(),
    events: [],
  };
}

const latencies: number[] = [];
let doubled = 0;
// The first campaign of each trader opens their ticker connection, and a fill made while it
// connects is read from the orderbook once it is up: not counted, the figure is the steady path.
const WARMUP = TRADERS;
for (let i = 0; i < CAMPAIGNS + WARMUP; i++) {
  const id = `sw${i.toString(16).padStart(12, "0")}`;
  const ownerId = (i % TRADERS) + 1;
  await store.executions.create({
    id,
    ownerId,
    spread: "SP1",
    status: "working",
    doc: doc(),
    createdAt: Date.now(),
    updatedAt: Date.now(),
  });
  engine.wake();
  await kite.until(() => kite.book.tagged(`${id}w1`).length > 0, `${id}'s first leg`);
  const work = kite.book.tagged(`${id}w1`)[0];
  const filledAt = performance.now();
  kite.book.fill(work?.order_id ?? "");
  await kite.until(() => kite.book.tagged(`${id}h2`).length > 0, `${id}'s hedge`);
  const hedge = kite.book.placements().findLast((r) => r.form.tag === `${id}h2`);
  // Filled, so the campaign ends and the open ones the engine reads stay few.
  const hedgeOrder = kite.book.tagged(`${id}h2`)[0];
  if (hedgeOrder?.status === "OPEN") kite.book.fill(hedgeOrder.order_id);
  if (i >= WARMUP) latencies.push((hedge?.perfAt ?? performance.now()) - filledAt);
  else engine.updatePaths.length = 0;
  if (process.env.BENCH_DEBUG) {
    const look = kite.book.seen.find((r) => r.method === "GET" && r.perfAt > filledAt);
    console.log(
      "fill→GET",
      ((look?.perfAt ?? 0) - filledAt).toFixed(1),
      "GET→POST",
      ((hedge?.perfAt ?? 0) - (look?.perfAt ?? 0)).toFixed(1),
    );
  }
  if (kite.book.tagged(`${id}w1`).length > 1 || kite.book.tagged(`${id}h2`).length > 1) doubled++;
}
await engine.stop();
await kite.stop();
await cleanup();

const s = summarize(latencies);
const wall = summarize(engine.updatePaths.map((p) => p.wallMs));
const cpu = summarize(engine.updatePaths.map((p) => p.cpuMs));
const ms = (v: number) => `${v.toFixed(2)} ms`;
console.log(
  `live orders: fill → hedge sent over ${s.n} campaigns: p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, p99 ${ms(s.p99)} (goal ≤ ${P99_GOAL_MS} ms), max ${ms(s.max)}; doubled orders ${doubled}; load ${loadavg()[0]?.toFixed(2)}`,
);
console.log(
  `  in process, order update arrived → hedge POST over ${wall.n} hedges: wall p50 ${ms(wall.p50)}, p99 ${ms(wall.p99)}; CPU p50 ${ms(cpu.p50)}, p99 ${ms(cpu.p99)}`,
);
console.log(
  `RESULT ${JSON.stringify({ bench: "executions", ...s, doubled, cpuP50: cpu.p50, cpuP99: cpu.p99 })}`,
);
