import {
  BUILT_IN_INSTRUMENTS,
  type ChartSymbol,
  chartSymbolLegs,
  defaultDuties,
  type InstrumentSpec,
} from "@spreadwatch/core";
import { createTestStore } from "@spreadwatch/db/testing";
import { describe, expect, it } from "vitest";
import { SimulatorModel } from "../feeds/simulator/model.ts";
import { seededRandom } from "../feeds/simulator/random.ts";
import { createSimulatorFeed } from "../feeds/simulator/simulator.ts";
import { backfillCandles } from "../history/backfill.ts";
import { ContractCloses } from "./contract-closes.ts";
import { SpreadStatsService } from "./spread-stats-service.ts";
import { storedCloses } from "./stored-closes.ts";

const duties = defaultDuties();
const M = 60_000;
const DAY = 86_400_000;
/** An IST midnight: the search steps from one to the next. */
const SEARCH_FROM = Date.UTC(2026, 10, 10, 18, 30);
const spec = (key: string) => BUILT_IN_INSTRUMENTS.find((s) => s.key === key) as InstrumentSpec;

/**
 * The first IST midnight after SEARCH_FROM at which `key` quotes a new contract: the simulator
 * rolls there (docs/simulator.md, "Contracts").
 */
function firstRoll(key: string): number {
  const model = new SimulatorModel(seededRandom(1), duties, { start: SEARCH_FROM });
  const contractAt = (ts: number) => model.midOf(spec(key), ts).contract?.symbol;
  for (let ts = SEARCH_FROM; ts < SEARCH_FROM + 90 * DAY; ts += DAY) {
    if (contractAt(ts) !== contractAt(ts + DAY)) return ts + DAY;
  }
  throw new Error(`${key} does not roll`);
}

/**
 * z of `symbol` at the last minute before `key`'s roll, judged as the server judges it before the
 * roll (the old month's value against the old month's window) and after it (the new month's
 * value of that same minute, quoted then as the @next key, against the new month's window), on
 * three days of the simulator's backfill (each near's next month quoted as its @next key). The
 * same minute, so the market's own move over a minute (GOLD − parity: σ ₹27 a minute, 0.15 sd,
 * docs/simulator.md) is not counted as the roll's; `zFirst` is the first minute after the roll.
 */
async function zAcrossRoll(seed: number, symbol: ChartSymbol, key: string) {
  const roll = firstRoll(key);
  const from = roll - 3 * DAY;
  const legs = chartSymbolLegs(symbol).map((l) => l.key);
  const feed = createSimulatorFeed({ duties, seed, now: () => from });
  feed.setInstruments?.(legs.map(spec));
  const test = createTestStore();
  try {
    await backfillCandles(test.store, feed.history?.(from, roll + 2 * M) ?? [], duties, {
      inUse: new Set(legs),
    });
    const model = new SimulatorModel(seededRandom(1), duties, { seed, start: from });
    let at = roll - M;
    const closes = new ContractCloses({
      store: test.store,
      duties,
      contractNow: (k) => model.midOf(spec(k), at).contract?.symbol,
      flush: async () => {},
      fallback: storedCloses(test.store, async () => {}),
    });
    const stats = new SpreadStatsService(closes.closes, undefined, (s) => closes.contractsOf(s));
    await stats.start();
    const valueAt = async (ts: number) =>
      (await closes.closes(symbol, 20)).find((c) => c.timestamp === ts)?.close as number;
    const before = await valueAt(roll - M);
    const zBefore = stats.liveMetric(symbol, "zscore", before) as number;
    at = roll;
    expect(closes.contractsOf(symbol)?.[key]).not.toBe(
      model.midOf(spec(key), roll).contract?.symbol,
    );
    // The same minute on the new contracts: February's close while it was GC@next.
    const sameMinute = await valueAt(roll - M);
    const first = await valueAt(roll);
    stats.contractRolled(new Set([key]));
    await stats.settled();
    expect(closes.contractsOf(symbol)?.[key]).toBe(model.midOf(spec(key), roll).contract?.symbol);
    const zAfter = stats.liveMetric(symbol, "zscore", sameMinute) as number;
    const zFirst = stats.liveMetric(symbol, "zscore", first) as number;
    return { gap: sameMinute - before, zBefore, zAfter, zFirst };
  } finally {
    await test.cleanup();
  }
}

describe("the simulator's rolls leave a spread's z where it was", () => {
  // COMEX and MCX roll on different days (docs/simulator.md): each leg's roll on its own.
  const cases: Array<[number, ChartSymbol, string]> = [
    [11, "GC_BUY", "GC"],
    [5, "GC_SELL", "GOLD"],
    [23, "SI_BUY", "SI"],
    [7, "SI_BUY", "SILVER"],
    [11, "CL_BUY", "CL"],
    [3, "NG_SELL", "NATURALGAS"],
  ];
  it.each(cases)(
    "seed %i, %s across %s's roll: |Δz| < 0.1",
    async (seed, symbol, key) => {
      const { gap, zBefore, zAfter, zFirst } = await zAcrossRoll(seed, symbol, key);
      expect(Number.isFinite(zBefore) && Number.isFinite(zAfter)).toBe(true);
      // The spread jumps by the calendar spread between the months (GOLD's: ~₹800)…
      expect(Math.abs(gap)).toBeGreaterThan(0);
      // …and its z, judged against the new months' own past, stays where it was.
      const note = `z ${zBefore} → ${zAfter} (first minute after: ${zFirst}), gap ${gap}`;
      expect(Math.abs(zAfter - zBefore), note).toBeLessThan(0.1);
      // Three days backfilled per case: generous on a loaded machine.
    },
    120_000,
  );
});
