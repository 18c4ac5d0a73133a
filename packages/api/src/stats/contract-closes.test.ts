import { BUILT_IN_INSTRUMENTS, defaultDuties } from "@spreadwatch/core";
import { createTestStore, type TestStore } from "@spreadwatch/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulatorFeed } from "../feeds/simulator/simulator.ts";
import { backfillCandles } from "../history/backfill.ts";
import { ContractCloses } from "./contract-closes.ts";
import { SpreadStatsService } from "./spread-stats-service.ts";
import { storedCloses } from "./stored-closes.ts";

const duties = defaultDuties();
const M = 60_000;
// COMEX gold rolls Z26 → G27 at 27 Nov 00:00 IST; MCX gold stays on December until 1 Dec.
const GC_ROLL = Date.UTC(2026, 10, 26, 18, 30);
const FROM = GC_ROLL - 3 * 86_400_000;
const TO = GC_ROLL + 2 * M;

let test: TestStore;
beforeAll(async () => {
  // The simulator's past with a fixed seed and time: each contract its own path, GC's roll in it.
  const feed = createSimulatorFeed({ duties, seed: 11, now: () => FROM });
  feed.setInstruments?.(BUILT_IN_INSTRUMENTS);
  test = createTestStore();
  await backfillCandles(test.store, feed.history?.(FROM, TO) ?? [], duties, {
    inUse: new Set(BUILT_IN_INSTRUMENTS.map((s) => s.key)),
  });
}, 120_000);
afterAll(() => test.cleanup());

describe("statistics of the contracts held", () => {
  it("a roll moves the window to the new contract's own past: z stays where it was", async () => {
    const now: Record<string, string> = { GC: "GCZ26", GOLD: "GOLD26DECFUT" };
    const closes = new ContractCloses({
      store: test.store,
      duties,
      contractNow: (key) => now[key],
      flush: async () => {},
      fallback: storedCloses(test.store, async () => {}),
    });
    const stats = new SpreadStatsService(closes.closes, undefined, (s) => closes.contractsOf(s));
    await stats.start();
    const valueAt = async (ts: number) =>
      (await closes.closes("GC_BUY", 20)).find((c) => c.timestamp === ts)?.close as number;
    // The last minute before the roll, valued on December.
    const before = await valueAt(GC_ROLL - M);
    const zBefore = stats.liveMetric("GC_BUY", "zscore", before) as number;
    expect(Number.isFinite(zBefore)).toBe(true);

    now.GC = "GCG27";
    // The first minute after, on February: ~₹800 lower (two months of carry on parity).
    const after = await valueAt(GC_ROLL);
    expect(before - after).toBeGreaterThan(200);
    // Judged against December's past it would be a signal out of nothing.
    const glued = stats.liveMetric("GC_BUY", "zscore", after) as number;
    expect(Math.abs(glued - zBefore)).toBeGreaterThan(1);

    stats.contractRolled(new Set(["GC"]));
    // Until the window is February's, there is no live metric: nothing can fire on the gap.
    expect(stats.liveMetric("GC_BUY", "zscore", after)).toBeUndefined();
    await stats.settled();
    const zAfter = stats.liveMetric("GC_BUY", "zscore", after) as number;
    // What is left is the spread's own move over that minute (GOLD − parity: σ ₹27 a minute,
    // docs/simulator.md; 0.24 here), not the ~₹820 roll gap that moved the glued z by more than 4:
    // the calendar spread between two months stays put while both trade (simulator-roll.test.ts
    // judges the roll on the same minute).
    expect(Math.abs(zAfter - zBefore)).toBeLessThan(1);
    expect(Math.abs(zAfter - zBefore)).toBeLessThan(Math.abs(glued - zBefore) / 5);
    const answer = await stats.stats("GC_BUY", 20, after);
    expect(answer.coverage).toEqual({
      from: answer.from,
      to: GC_ROLL + 2 * M,
      first: expect.any(Number),
      closes: answer.n,
      contracts: { GC: "GCG27", GOLD: "GOLD26DECFUT" },
      loading: false,
    });
    // Three days of minutes, February's own (quoted as GC@next before the roll).
    expect(answer.n).toBeGreaterThan(3 * 1440 - 10);
  });
});
