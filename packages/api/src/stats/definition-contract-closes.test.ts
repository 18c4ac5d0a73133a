import {
  BUILT_IN_INSTRUMENTS,
  defaultDuties,
  type InstrumentSpec,
  type SpreadDefinition,
} from "@spreadwatch/core";
import { createTestStore, type TestStore } from "@spreadwatch/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulatorFeed } from "../feeds/simulator/simulator.ts";
import { backfillCandles } from "../history/backfill.ts";
import { builtInDefinitions } from "../spreads/built-ins.ts";
import { SpreadRegistry } from "../spreads/registry.ts";
import { definitionContractCloses } from "./definition-contract-closes.ts";
import { SpreadStatsService } from "./spread-stats-service.ts";
import { definitionCloses } from "./stored-closes.ts";

const duties = defaultDuties();
const M = 60_000;
const DAY = 86_400_000;
// COMEX gold rolls Z26 → G27 at 27 Nov 00:00 IST; MCX gold stays on December until 1 Dec.
const GC_ROLL = Date.UTC(2026, 10, 26, 18, 30);
const FROM = GC_ROLL - 3 * DAY;
const LEGS = ["GOLD", "GC", "USDINR"];
const spec = (key: string) => BUILT_IN_INSTRUMENTS.find((s) => s.key === key) as InstrumentSpec;

/** A user's own gold parity: GOLD (₹ / 10 g) against GC ($ / oz) in rupees, duty included. */
const parity: SpreadDefinition = {
  id: 7,
  symbol: "SP7",
  name: "My gold parity",
  legs: [
    { name: "g", instrument: "GOLD" },
    { name: "c", instrument: "GC" },
    { name: "u", instrument: "USDINR" },
  ],
  formula: "g - c * u / 31.1035 * 10 * 1.06",
  shared: false,
  builtin: false,
  ownerId: 2,
  // Made after the past below: its window is all its legs' past.
  createdAt: GC_ROLL + DAY,
  updatedAt: GC_ROLL + DAY,
};

let test: TestStore;
let registry: SpreadRegistry;
beforeAll(async () => {
  // Three days of the simulator's past with GC's roll in it: each contract its own path, GC@next
  // (February) quoted beside GC (December) until the roll.
  const feed = createSimulatorFeed({ duties, seed: 11, now: () => FROM });
  feed.setInstruments?.(LEGS.map(spec));
  test = createTestStore();
  await backfillCandles(test.store, feed.history?.(FROM, GC_ROLL + 2 * M) ?? [], duties, {
    inUse: new Set(LEGS),
  });
  registry = new SpreadRegistry({
    builtIns: builtInDefinitions(duties),
    load: async () => [parity],
  });
  await registry.reload();
}, 120_000);
afterAll(() => test.cleanup());

describe("an own spread's statistics from the contracts its legs quote now", () => {
  it("an own spread of GOLD and GC keeps z across GC's roll: the window moves to February's own past", async () => {
    const now: Record<string, string> = { GC: "GCZ26", GOLD: "GOLD26DECFUT" };
    const flush = async () => {};
    const { closes, contractsOf } = definitionContractCloses({
      store: test.store,
      spreads: registry,
      contractNow: (key) => now[key],
      flush,
      fallback: definitionCloses(test.store, registry, flush),
    });
    const stats = new SpreadStatsService(async () => [], {
      spreads: registry,
      closes,
      contractsOf,
    });
    const valueAt = async (ts: number) =>
      (await closes("SP7_BUY", 20)).find((c) => c.timestamp === ts)?.close as number;

    const before = await valueAt(GC_ROLL - M);
    const window = await stats.stats("SP7_BUY", 20, before);
    // Three days of December's minutes.
    expect(window.n).toBeGreaterThan(3 * 1440 - 10);
    expect(window.coverage.contracts).toEqual({ GOLD: "GOLD26DECFUT", GC: "GCZ26" });
    const zBefore = stats.liveMetric("SP7_BUY", "zscore", before) as number;
    expect(Number.isFinite(zBefore)).toBe(true);

    now.GC = "GCG27";
    stats.contractRolled(new Set(["GC"]));
    // The same minute on February (quoted then as GC@next), and the first minute after the roll.
    const sameMinute = await valueAt(GC_ROLL - M);
    const first = await valueAt(GC_ROLL);
    // Two months of carry on parity: the quote jumps by ~₹800…
    expect(before - sameMinute).toBeGreaterThan(500);
    const after = await stats.stats("SP7_BUY", 20, sameMinute);
    expect(after.n).toBeGreaterThan(3 * 1440 - 10);
    expect(after.coverage.contracts).toEqual({ GOLD: "GOLD26DECFUT", GC: "GCG27" });
    const zSame = stats.liveMetric("SP7_BUY", "zscore", sameMinute) as number;
    const zFirst = stats.liveMetric("SP7_BUY", "zscore", first) as number;
    // …and z does not move with it: judged against February's own past, the same minute's z is
    // December's, and the first minute after differs by the spread's own one-minute move
    // (σ ≈ ₹27, 0.15 sd: docs/simulator.md), where the per-key past glued December to February
    // and moved it by more than 4.
    expect(Math.abs(zSame - zBefore)).toBeLessThan(0.1);
    expect(Math.abs(zFirst - zBefore)).toBeLessThan(0.5);
  }, 60_000);

  it("keeps the legs' per-key past for a definition whose legs name no contract", async () => {
    const empty = createTestStore();
    try {
      const { closes, contractsOf } = definitionContractCloses({
        store: empty.store,
        spreads: registry,
        contractNow: () => undefined,
        flush: async () => {},
        fallback: async () => [{ timestamp: 1, close: 42 }],
      });
      expect(await closes("SP7_BUY", 20)).toEqual([{ timestamp: 1, close: 42 }]);
      // Of no contract: the legs' per-key history.
      expect(contractsOf("SP7_BUY")).toBeUndefined();
      // Not a user definition's symbol: nothing.
      expect(await closes("GC_BUY", 20)).toEqual([]);
    } finally {
      await empty.cleanup();
    }
  });
});
