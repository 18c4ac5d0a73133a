import { describe, expect, it } from "vitest";
import {
  type ExecutablePrice,
  type GuardOrder,
  type GuardState,
  type GuardTicket,
  guardStep,
  initialGuardState,
  onTick,
  orderTag,
  payUpPrice,
  slippageTicks,
  thinnerLeg,
} from "./leg-guard.ts";

const ticket = (over: Partial<GuardTicket> = {}): GuardTicket => ({
  work: { name: "b", side: "SELL", quantity: 2, tick: 1, price: 127_540 },
  hedge: { name: "a", side: "BUY", quantity: 2, tick: 1 },
  payUpTicks: 1,
  hedgeTimeoutMs: 5_000,
  adverseTicks: 5,
  onHedgeFail: "flatten",
  ...over,
});
const market: ExecutablePrice = (leg, side) =>
  leg === "a" ? (side === "BUY" ? 127_010 : 127_000) : side === "BUY" ? 127_550 : 127_540;

/** Applies a step's placements as the broker would acknowledge them. */
function acknowledge(state: GuardState, placed: GuardOrder[]): GuardState {
  let id = state.orders.length;
  return {
    ...state,
    orders: [
      ...state.orders,
      ...placed.map((o) => ({ ...o, state: "open" as const, orderId: `k${++id}` })),
    ],
  };
}
const fill = (state: GuardState, tag: string, filled: number, state2 = "open"): GuardState => ({
  ...state,
  orders: state.orders.map((o) =>
    o.tag === tag
      ? { ...o, filled, averagePrice: o.price, state: state2 as GuardOrder["state"] }
      : o,
  ),
});

describe("the leg guard", () => {
  it("works the first leg at the target, then hedges each fill at the executable side plus pay-up", () => {
    let step = guardStep("c1", ticket(), initialGuardState(), 0, market);
    expect(step.place).toMatchObject([
      { role: "work", leg: "b", side: "SELL", quantity: 2, price: 127_540, tag: "c1w1" },
    ]);
    let state = acknowledge(step.state, step.place);
    // Nothing filled: nothing more to do.
    expect(guardStep("c1", ticket(), state, 1, market).place).toEqual([]);
    state = fill(state, "c1w1", 1);
    step = guardStep("c1", ticket(), state, 100, market);
    expect(step.place).toMatchObject([
      { role: "hedge", leg: "a", side: "BUY", quantity: 1, price: 127_011, tag: "c1h2" },
    ]);
    expect(step.state).toMatchObject({ status: "hedging", hedgeDueAt: 5_100 });
    state = acknowledge(step.state, step.place);
    // The same fill is hedged once, however often the step runs.
    expect(guardStep("c1", ticket(), state, 200, market).place).toEqual([]);
    state = fill(fill(state, "c1w1", 2, "complete"), "c1h2", 1, "complete");
    step = guardStep("c1", ticket(), state, 300, market);
    expect(step.place).toMatchObject([{ role: "hedge", quantity: 1, tag: "c1h3" }]);
    state = fill(acknowledge(step.state, step.place), "c1h3", 1, "complete");
    step = guardStep("c1", ticket(), state, 400, market);
    expect(step.state.status).toBe("done");
    expect(step.place).toEqual([]);
  });

  it("flattens the filled leg when the hedge is rejected, after cancelling what rests", () => {
    let state = acknowledge(
      initialGuardState(),
      guardStep("c2", ticket(), initialGuardState(), 0, market).place,
    );
    state = fill(state, "c2w1", 1);
    state = acknowledge(state, guardStep("c2", ticket(), state, 0, market).place);
    state = {
      ...state,
      orders: state.orders.map((o) =>
        o.role === "hedge" ? { ...o, state: "rejected", message: "margin" } : o,
      ),
    };
    let step = guardStep("c2", ticket(), state, 10, market);
    expect(step.cancel).toEqual(["c2w1"]);
    expect(step.events[0]).toContain("rejected: margin");
    expect(step.place).toEqual([]);
    state = {
      ...step.state,
      orders: step.state.orders.map((o) => (o.tag === "c2w1" ? { ...o, state: "cancelled" } : o)),
    };
    step = guardStep("c2", ticket(), state, 20, market);
    expect(step.place).toMatchObject([
      { role: "flatten", leg: "b", side: "BUY", quantity: 1, price: null },
    ]);
    state = fill(acknowledge(step.state, step.place), step.place[0]?.tag ?? "", 1, "complete");
    expect(guardStep("c2", ticket(), state, 30, market).state.status).toBe("flattened");
  });

  it("leaves the leg and alerts when the ticket chose so, or when the hedge times out", () => {
    const alert = ticket({ onHedgeFail: "alert" });
    let state = acknowledge(
      initialGuardState(),
      guardStep("c3", alert, initialGuardState(), 0, market).place,
    );
    state = fill(state, "c3w1", 2, "complete");
    const hedged = guardStep("c3", alert, state, 0, market);
    state = acknowledge(hedged.state, hedged.place);
    expect(guardStep("c3", alert, state, 4_999, market).state.status).toBe("hedging");
    const step = guardStep("c3", alert, state, 5_000, market);
    expect(step.state.status).toBe("naked");
    expect(step.cancel).toEqual(["c3h2"]);
    expect(step.events.join(" ")).toContain("not filled within 5000 ms");
  });

  it("trips when the hedge leg's market runs N ticks past the hedge's limit", () => {
    let state = acknowledge(
      initialGuardState(),
      guardStep("c4", ticket(), initialGuardState(), 0, market).place,
    );
    state = fill(state, "c4w1", 2, "complete");
    state = acknowledge(state, guardStep("c4", ticket(), state, 0, market).place);
    const away: ExecutablePrice = (leg, side) => (leg === "a" ? 127_016 : market(leg, side));
    expect(guardStep("c4", ticket(), state, 1, away).state.tripped).toContain("moved 5 ticks");
  });

  it("stops at the kill switch: cancels, sends nothing, and names a naked leg", () => {
    let state = acknowledge(
      initialGuardState(),
      guardStep("c5", ticket(), initialGuardState(), 0, market).place,
    );
    state = { ...fill(state, "c5w1", 1), stopping: "kill" };
    let step = guardStep("c5", ticket(), state, 1, market);
    expect(step.place).toEqual([]);
    expect(step.cancel).toEqual(["c5w1"]);
    state = {
      ...step.state,
      orders: step.state.orders.map((o) => ({ ...o, state: "cancelled" as const })),
    };
    step = guardStep("c5", ticket(), state, 2, market);
    expect(step.state.status).toBe("naked");
  });

  it("waits for the hedge leg's price within the hedge's time, then trips", () => {
    let state = acknowledge(
      initialGuardState(),
      guardStep("c7", ticket(), initialGuardState(), 0, market).place,
    );
    state = fill(state, "c7w1", 2, "complete");
    const none: ExecutablePrice = () => undefined;
    let step = guardStep("c7", ticket(), state, 10, none);
    expect(step.place).toEqual([]);
    expect(step.state).toMatchObject({ status: "hedging", hedgeDueAt: 5_010, tripped: null });
    step = guardStep("c7", ticket(), step.state, 20, market);
    expect(step.place).toMatchObject([{ role: "hedge", quantity: 2 }]);
    expect(step.state.hedgeDueAt).toBe(5_010);
    const late = guardStep("c7", ticket(), { ...state, hedgeDueAt: 5_010 }, 5_010, none);
    expect(late.state.tripped).toContain("not filled within");
  });

  it("fails when the first leg is rejected, sending nothing else", () => {
    let state = acknowledge(
      initialGuardState(),
      guardStep("c6", ticket(), initialGuardState(), 0, market).place,
    );
    state = {
      ...state,
      orders: state.orders.map((o) => ({
        ...o,
        state: "rejected" as const,
        message: "price band",
      })),
    };
    const step = guardStep("c6", ticket(), state, 1, market);
    expect(step.state.status).toBe("failed");
    expect(step.place).toEqual([]);
  });
});

describe("leg guard helpers", () => {
  it("keeps tags within Kite's 20 characters", () => {
    expect(orderTag("abcdefghijklmn", "hedge", 123)).toBe("abcdefghijklmnh123");
    expect(orderTag("abcdefghijklmnopqrst", "hedge", 1).length).toBe(20);
  });
  it("pays up in whole ticks on the filling side", () => {
    expect(payUpPrice(100.1, "BUY", 2, 0.05)).toBeCloseTo(100.2, 10);
    expect(payUpPrice(100.1, "SELL", 2, 0.05)).toBeCloseTo(100.0, 10);
  });
  it("writes a paid-up price exactly on the tick, as Kite takes it", () => {
    // 24000.3 + 1 × 0.05 is 24000.350000000002 in floats; NFO's tick is 0.05, CDS's 0.0025.
    expect(String(payUpPrice(24_000.3, "BUY", 1, 0.05))).toBe("24000.35");
    expect(String(payUpPrice(84.1225, "SELL", 3, 0.0025))).toBe("84.115");
    expect(String(onTick(84.11751, 0.0025))).toBe("84.1175");
    expect(String(onTick(127_003.4, 1))).toBe("127003");
  });
  it("works the wider book first and measures slippage against the trader", () => {
    expect(
      thinnerLeg([
        { name: "a", bid: 100, ask: 101, tick: 1 },
        { name: "b", bid: 100, ask: 104, tick: 1 },
      ]),
    ).toBe("b");
    expect(slippageTicks(-500, -498, "BUY", 1)).toBe(2);
    expect(slippageTicks(-500, -498, "SELL", 1)).toBe(-2);
  });
});
