import { describe, expect, it } from "vitest";
import { type RollingLeg, rolledLegKeys } from "./position-roll.ts";
import { contractMonthIndex } from "./roll-marks.ts";

const month = (contract: string) => contractMonthIndex(contract);
const leg = (key: string, contract: string | undefined, moved = false): RollingLeg => ({
  key,
  month: key === "USDINR" ? null : key.includes("@") ? (key.split("@")[1] as "next") : "near",
  moved,
  contractMonth: contract === undefined ? undefined : month(contract),
});

describe("contractMonthIndex", () => {
  it("orders MCX's and CME's names by delivery month", () => {
    expect(month("GOLD26DECFUT")).toBe(2026 * 12 + 11);
    expect(month("GCG27")).toBe(2027 * 12 + 1);
    expect(month("GCZ6")).toBe(2006 * 12 + 11);
    expect(month("CLG27.NYM")).toBe(2027 * 12 + 1);
    expect(month("whatever")).toBeUndefined();
  });
});

describe("rolledLegKeys", () => {
  it("moves the expiring leg and keeps a leg already on the later month", () => {
    // A GC parity held as GOLD Dec against GC Feb (GC rolled before the position was opened).
    const legs = [leg("GOLD", "GOLD26DECFUT"), leg("GC", "GCG27"), leg("USDINR", undefined)];
    expect(rolledLegKeys(legs)).toEqual(["GOLD@next", "GC", "USDINR"]);
  });

  it("keeps a leg the feed rolled and moves the one still on the month before", () => {
    const legs = [leg("GOLD", "GOLD26DECFUT"), leg("GC", "GCG27", true), leg("USDINR", undefined)];
    expect(rolledLegKeys(legs)).toEqual(["GOLD@next", "GC", "USDINR"]);
  });

  it("moves every leg on the same month, and leaves legs of unknown month as before", () => {
    expect(rolledLegKeys([leg("GOLD", "GOLD26DECFUT"), leg("GC", "GCZ26")])).toEqual([
      "GOLD@next",
      "GC@next",
    ]);
    expect(rolledLegKeys([leg("GOLD", undefined), leg("GC@next", undefined)])).toEqual([
      "GOLD@next",
      "GC@far",
    ]);
  });

  it("moves a calendar's months together and nothing once the feed moved every leg", () => {
    expect(rolledLegKeys([leg("GC", "GCZ26"), leg("GC@next", "GCG27")])).toEqual([
      "GC@next",
      "GC@far",
    ]);
    expect(rolledLegKeys([leg("GOLD", "GOLD27FEBFUT", true), leg("GC", undefined)])).toEqual([
      "GOLD",
      "GC",
    ]);
  });
});
