import {
  defaultCostRates,
  emptyPrices,
  formatInr,
  rearmDistance,
  SHIPPED_INSTRUMENTS,
} from "@spreadwatch/core";
import type { PositionCrossing, RecordedPositionCrossing, SpreadMark } from "@spreadwatch/db";
import { describe, expect, it } from "vitest";
import { positionMessage } from "../alerts/firing-payload.ts";
import type { HubUpdate, LiveEntry } from "../market/hub.ts";
import type { RegisteredSpread } from "../spreads/registry.ts";
import { costsAt } from "./costs.ts";
import type { WatchedPosition } from "./position-alert-source.ts";
import { PositionAlerts } from "./position-alerts.ts";
import { type CostsPerLot, liveCostsPerLot } from "./position-net.ts";

/** A BUY 2 × GC at 100 with 100 units a lot: net ₹ = (mark − 100) × 200 − 2 × costs. */
function position(fields: Partial<WatchedPosition> = {}): WatchedPosition {
  return {
    id: 1,
    ownerId: 7,
    spread: "GC",
    side: "BUY",
    lots: 2,
    entry: 100,
    units: 100,
    targetInr: 1_000,
    stopInr: -1_000,
    ...fields,
  };
}

interface Harness {
  alerts: PositionAlerts;
  recorded: PositionCrossing[];
  /** Symbols whose costs were asked for: what a quote touched. */
  costed: string[];
  positions: WatchedPosition[];
  hold: { reason: string | undefined };
  quote(symbol: string, spread: number, at?: number): Promise<void>;
  /** What the watcher saved for the next leader (with `stored`). */
  saved: SpreadMark[];
}

/** `stored`: the marks a previous leader saved; without it the store has no marks at all. */
async function harness(
  positions: WatchedPosition[],
  costsPerLot = 10,
  stored?: SpreadMark[],
): Promise<Harness> {
  const saved: SpreadMark[] = [];
  const recorded: PositionCrossing[] = [];
  const costed: string[] = [];
  const hold: { reason: string | undefined } = { reason: undefined };
  const list = [...positions];
  const costs: CostsPerLot = (symbol) => {
    costed.push(symbol);
    return costsPerLot;
  };
  const alerts = new PositionAlerts(
    {
      ...(stored && {
        spreadMarks: {
          list: async () => stored,
          save: async (marks: readonly SpreadMark[]) => void saved.push(...marks),
        },
      }),
      firings: {
        list: async () => [],
        recordPositionCrossings: async (crossings) => {
          recorded.push(...crossings);
          return crossings.map(
            (_, i): RecordedPositionCrossing => ({ firingId: recorded.length + i, outbox: [] }),
          );
        },
      },
    },
    {
      listWatched: async (userId) =>
        list.filter((p) => userId === undefined || p.ownerId === userId),
    },
    { legs: { holdReason: () => hold.reason }, costs, onQueued: () => {} },
  );
  await alerts.start();
  let clock = 1_000;
  const entries = new Map<string, { symbol: string; spread: number }>();
  return {
    alerts,
    recorded,
    saved,
    costed,
    positions: list,
    hold,
    async quote(symbol, spread, at) {
      clock += 1_000;
      const ts = at ?? clock;
      // One entry object per symbol, its numbers written anew at each quote, as the hub does.
      const entry = entries.get(symbol) ?? { symbol, spread };
      entry.spread = spread;
      entries.set(symbol, entry);
      const update = {
        quote: { source: "cme", key: "GC", price: 1, ts },
        symbols: [symbol],
        calculations: { [symbol]: entry },
        prices: emptyPrices(),
      } as unknown as HubUpdate;
      alerts.onUpdate(update);
      await alerts.idle();
    },
  };
}

describe("PositionAlerts", () => {
  it("after a change of leader, fires a crossing between the last leader's value and its own first", async () => {
    // The previous leader last judged GC_SELL at 104 (net 780); this one first sees 105.2 (1,020).
    const h = await harness([position()], 10, [
      { symbol: "GC_SELL|position-net", value: 104, at: 1 },
      { symbol: "GC_SELL", value: 50, at: 1 }, // the alert engine's own: not ours
    ]);
    await h.quote("GC_SELL", 105.2);
    expect(h.recorded.map((c) => [c.state, c.value])).toEqual([["fired", 1_020]]);
    // A position opened later learns from its own first value, not from the old leader's.
    // (Units of 50: a group of its own. Net = (mark − 100) × 100 − 20: 380 at the old leader's
    // 104, 510 now, so judged from 104 it would fire.)
    h.positions.push(position({ id: 2, units: 50, targetInr: 500 }));
    h.alerts.positionsChanged(7);
    await h.alerts.idle();
    await h.quote("GC_SELL", 105.3); // its net 510: past 500 at its first value, only recorded
    expect(h.recorded).toHaveLength(1);
    // Its last value is saved for the next leader.
    await h.alerts.stop();
    expect(h.saved.at(-1)).toMatchObject({ symbol: "GC_SELL|position-net", value: 105.3 });
  });

  it("without a previous leader's value, a first value above the target only records it", async () => {
    const h = await harness([position()], 10, []);
    await h.quote("GC_SELL", 105.2);
    expect(h.recorded).toEqual([]);
  });

  it("fires a target once per crossing of net ₹, and again only after re-arming", async () => {
    const h = await harness([position()]);
    // Net = (mark − 100) × 200 − 20: 105 → 980 (below 1,000), 105.2 → 1,020 (reached).
    await h.quote("GC_SELL", 105);
    await h.quote("GC_SELL", 105.2);
    expect(h.recorded).toMatchObject([
      {
        userId: 7,
        symbol: "GC_SELL",
        value: 1_020,
        threshold: 1_000,
        direction: "above",
        state: "fired",
        note: "BUY 2 × GC: net ₹1,020 reached target ₹1,000",
        text: "🎯 BUY 2 × GC: net ₹1,020 reached target ₹1,000",
      },
    ]);
    // Wobbling under the target by less than the re-arm distance (₹100) fires nothing more.
    await h.quote("GC_SELL", 104.9); // 960
    await h.quote("GC_SELL", 105.3); // 1,040
    expect(h.recorded).toHaveLength(1);
    // Back past the re-arm level (≤ ₹900), then up again: a second firing.
    await h.quote("GC_SELL", 104.5); // 880
    await h.quote("GC_SELL", 105.5); // 1,080
    expect(h.recorded.map((c) => c.value)).toEqual([1_020, 1_080]);
  });

  it("fires a SELL position's stop when net ₹ falls to it, at its BUY exit", async () => {
    const h = await harness([position({ side: "SELL", targetInr: null, stopInr: -500 })]);
    // A SELL gains as the spread falls: net = (100 − mark) × 200 − 20.
    await h.quote("GC_SELL", 90); // the wrong symbol: a SELL is marked at GC_BUY
    await h.quote("GC_BUY", 101); // −220
    await h.quote("GC_BUY", 102.4); // −500: reached (net ≤ stop)
    expect(h.recorded).toMatchObject([
      {
        symbol: "GC_BUY",
        value: -500,
        threshold: -500,
        direction: "below",
        text: "🛑 SELL 2 × GC: net -₹500 fell to stop -₹500",
      },
    ]);
    expect(h.costed).not.toContain("GC_SELL");
  });

  it("does not fire on the first value, even one already past the level", async () => {
    const h = await harness([position()]);
    await h.quote("GC_SELL", 110); // 1,980: already past the target
    await h.quote("GC_SELL", 111);
    expect(h.recorded).toEqual([]);
    // It has to come back past the re-arm level before a crossing fires.
    await h.quote("GC_SELL", 104);
    await h.quote("GC_SELL", 106);
    expect(h.recorded).toHaveLength(1);
  });

  it("holds a crossing on a stale leg (one History entry), then fires it on fresh prices", async () => {
    const h = await harness([position()]);
    await h.quote("GC_SELL", 104);
    h.hold.reason = "Held: CME GC quote stale (no quote for 12 s)";
    await h.quote("GC_SELL", 106);
    await h.quote("GC_SELL", 107);
    expect(h.recorded).toMatchObject([
      {
        state: "held",
        value: 1_180,
        note: "BUY 2 × GC: net ₹1,180 reached target ₹1,000. Held: CME GC quote stale (no quote for 12 s)",
      },
    ]);
    h.hold.reason = undefined;
    await h.quote("GC_SELL", 106);
    expect(h.recorded.map((c) => c.state)).toEqual(["held", "fired"]);
  });

  it("looks only at positions on the symbols a quote recomputed", async () => {
    const h = await harness([
      position(),
      position({ id: 2, spread: "SP7", ownerId: 8 }),
      position({ id: 3, spread: "SI", targetInr: null }),
    ]);
    await h.quote("CL_SELL", 1);
    await h.quote("GC_BUY", 1);
    expect(h.costed).toEqual([]);
    await h.quote("SP7_SELL", 104);
    await h.quote("SP7_SELL", 106);
    expect(h.costed).toEqual(["SP7_SELL", "SP7_SELL"]);
    expect(h.recorded).toMatchObject([{ userId: 8, symbol: "SP7_SELL", state: "fired" }]);
    expect(h.alerts.watchedCount).toBe(3);
  });

  it("follows a user's edits: a new target learns its side afresh, a closed position stops", async () => {
    const h = await harness([position(), position({ id: 2, ownerId: 8 })]);
    await h.quote("GC_SELL", 104);
    // User 7 moves the target above the next value; user 8's position keeps its state.
    h.positions[0] = position({ targetInr: 2_000 });
    h.alerts.positionsChanged(7);
    await h.alerts.idle();
    await h.quote("GC_SELL", 106); // 1,180: user 8's fires; user 7's (2,000) does not
    expect(h.recorded.map((c) => c.userId)).toEqual([8]);
    // User 8 closes theirs: it is no longer watched.
    h.positions.splice(1, 1);
    h.alerts.positionsChanged(8);
    await h.alerts.idle();
    expect(h.alerts.watchedCount).toBe(1);
    await h.quote("GC_SELL", 104);
    await h.quote("GC_SELL", 111); // 2,180: user 7's target
    expect(h.recorded.map((c) => c.userId)).toEqual([8, 7]);
  });

  it("fires every level a jump passes over, and only those, across lots and units", async () => {
    const h = await harness([
      position({ id: 1, lots: 1, targetInr: 500, stopInr: null }), // reached at 105.1
      position({ id: 2, lots: 4, targetInr: 4_000, stopInr: null }), // reached at 110.025
      position({ id: 3, lots: 2, units: 10, targetInr: 100, stopInr: null }), // at 106
      position({ id: 4, lots: 1, targetInr: 5_000, stopInr: null }), // at 150.1: not reached
      position({ id: 5, side: "SELL", lots: 1, targetInr: 100, stopInr: null }), // on GC_BUY
    ]);
    await h.quote("GC_SELL", 100);
    await h.quote("GC_SELL", 120);
    expect(h.recorded.map((c) => [c.userId, c.value, c.threshold]).sort()).toEqual(
      [
        [7, 1_990, 500],
        [7, 380, 100],
        [7, 7_960, 4_000],
      ].sort(),
    );
  });

  it("learns afresh after its definition changed: the jump an edit makes is not a crossing", async () => {
    const h = await harness([position({ spread: "SP7" })]);
    await h.quote("SP7_SELL", 104);
    h.alerts.spreadsChanged({ changed: [{ symbol: "SP7" } as RegisteredSpread], removed: [] });
    await h.quote("SP7_SELL", 110); // past the target on the new formula: recorded, not fired
    await h.quote("SP7_SELL", 111);
    expect(h.recorded).toEqual([]);
    await h.quote("SP7_SELL", 104);
    await h.quote("SP7_SELL", 106);
    expect(h.recorded).toHaveLength(1);
  });

  it("counts the round-trip costs of every lot", async () => {
    const h = await harness([position({ targetInr: 0, stopInr: null })], 150);
    // Net = (mark − 100) × 200 − 300: breakeven at 101.5.
    await h.quote("GC_SELL", 101.4);
    await h.quote("GC_SELL", 101.49);
    expect(h.recorded).toEqual([]);
    await h.quote("GC_SELL", 101.5);
    expect(h.recorded).toMatchObject([{ value: 0 }]);
  });

  it("words rupees with Indian digit groups", () => {
    expect(formatInr(1_240_000)).toBe("₹12,40,000");
    expect(formatInr(-3_000.5)).toBe("-₹3,000.5");
    expect(positionMessage({ side: "BUY", lots: 2, spread: "GC" }, "target", 12_400, 12_000)).toBe(
      "BUY 2 × GC: net ₹12,400 reached target ₹12,000",
    );
    expect(rearmDistance(12_000)).toBe(120);
    expect(rearmDistance(-500)).toBe(100);
  });

  it("costs a lot as the Positions tab does (costsAt), to the paisa once rounded", () => {
    const specOf = (key: string) => SHIPPED_INSTRUMENTS.find((spec) => spec.key === key);
    const rates = defaultCostRates();
    const prices = emptyPrices();
    prices.fx.USDINR = { price: 84.12, timestamp: 1 };
    const calendar = {
      builtin: false,
      legs: [
        { name: "g", instrument: "GOLD", lots: 2 },
        { name: "c", instrument: "GC", lots: 1 },
        { name: "fx", instrument: "USDINR" },
      ],
    } as unknown as RegisteredSpread;
    const costs = liveCostsPerLot(
      { executable: () => ({ spread: calendar, side: "SELL" }) },
      specOf,
      () => rates,
    );
    const builtIn = {
      symbol: "GC_SELL",
      spread: 120.5,
      cme: 2650.4,
      mcx: 76_012.5,
      parity: 0,
      usdinr: 84.12,
    };
    const ours = costs("GC_SELL", builtIn as LiveEntry, prices) as number;
    const theirs = costsAt(
      { builtin: true } as RegisteredSpread,
      "GC_SELL",
      builtIn.spread,
      { m: builtIn.mcx, c: builtIn.cme, fx: builtIn.usdinr },
      rates,
      specOf,
      84.12,
    );
    expect(Math.round(ours * 100) / 100).toBe(theirs?.perLotInr);
    const legs = {
      g: { price: 76_020.25, side: "bid", instrument: "GOLD" },
      c: { price: 2651.1, side: "ask", instrument: "GC" },
      fx: { price: 84.12, side: "bid", instrument: "USDINR" },
    };
    const definition = { symbol: "SP7_SELL", spread: 12.5, legs } as unknown as LiveEntry;
    const mine = costs("SP7_SELL", definition, prices) as number;
    const view = costsAt(
      calendar,
      "SP7_SELL",
      12.5,
      { g: 76_020.25, c: 2651.1, fx: 84.12 },
      rates,
      specOf,
      84.12,
    );
    expect(view?.perLotInr).toBeGreaterThan(0);
    expect(Math.round(mine * 100) / 100).toBe(view?.perLotInr);
  });
});
