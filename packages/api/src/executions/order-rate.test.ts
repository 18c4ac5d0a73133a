import { describe, expect, it } from "vitest";
import { OrderLimitReached, OrderRate } from "./order-rate.ts";

// A fixed clock the test moves: 2026-03-02 10:00 IST, a trading morning.
const MORNING = Date.UTC(2026, 2, 2, 4, 30);

function rateAt(start: number, limits = { perSecond: 10, perMinute: 400, perDay: 5_000 }) {
  const clock = { now: start };
  return { clock, rate: new OrderRate(limits, () => clock.now) };
}

describe("Kite's order limits per account", () => {
  it("queues the eleventh order of a second until the second has passed, with the reason", async () => {
    const { clock, rate } = rateAt(MORNING);
    for (let i = 0; i < 10; i++) await rate.acquire("a");
    expect(rate.check("a")).toEqual({
      kind: "wait",
      ms: 1_000,
      reason: "queued: Kite's 10 orders a second for this account",
    });
    // Another account has its own limits.
    expect(rate.check("b")).toEqual({ kind: "send" });
    clock.now += 1_000;
    expect(rate.check("a")).toEqual({ kind: "send" });
  });

  it("queues the 401st order of a minute until the minute's first has aged out", async () => {
    const { clock, rate } = rateAt(MORNING);
    for (let i = 0; i < 400; i++) {
      await rate.acquire("a");
      clock.now += 101; // under 10 a second: only the minute's limit can bind
    }
    const verdict = rate.check("a");
    expect(verdict).toMatchObject({
      kind: "wait",
      reason: "queued: Kite's 400 orders a minute for this account",
    });
    // The first went at MORNING; 400 × 101 ms later it leaves the minute at MORNING + 60 s.
    expect(verdict.kind === "wait" && verdict.ms).toBe(MORNING + 60_000 - clock.now);
    clock.now = MORNING + 60_000;
    expect(rate.check("a")).toEqual({ kind: "send" });
  });

  it("refuses placements over 5,000 a day before sending, never a cancel; a new IST day resets", async () => {
    const { clock, rate } = rateAt(MORNING, { perSecond: 1e9, perMinute: 1e9, perDay: 5_000 });
    for (let i = 0; i < 4_999; i++) await rate.acquire("a");
    await rate.acquire("a");
    expect(rate.check("a")).toEqual({
      kind: "refuse",
      reason: "Kite's limit of 5,000 orders a day for this account is reached",
    });
    await expect(rate.acquire("a")).rejects.toBeInstanceOf(OrderLimitReached);
    await expect(rate.acquire("a", undefined, "cancel")).resolves.toBeUndefined();
    // Midnight IST (18:30 UTC) starts Kite's next order day.
    clock.now = Date.UTC(2026, 2, 2, 18, 30);
    expect(rate.check("a")).toEqual({ kind: "send" });
  });

  it("counts the orders Kite's orderbook already lists today (a restart, orders placed in Kite)", () => {
    const { rate } = rateAt(MORNING, { perSecond: 10, perMinute: 400, perDay: 5_000 });
    rate.observeBook("a", 5_000);
    expect(rate.check("a").kind).toBe("refuse");
    rate.observeBook("b", 4_999);
    expect(rate.check("b").kind).toBe("send");
  });

  it("holds an account back after a 429, with the reason", () => {
    const { clock, rate } = rateAt(MORNING);
    rate.backOff("a", 1_000);
    expect(rate.check("a")).toEqual({
      kind: "wait",
      ms: 1_000,
      reason: "Kite answered 429: held back",
    });
    clock.now += 1_000;
    expect(rate.check("a")).toEqual({ kind: "send" });
  });
});
