import { BUILT_IN_INSTRUMENTS, defaultDuties } from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";
import { createTestStore } from "@spreadwatch/db/testing";
import { describe, expect, it } from "vitest";
import { createSimulatorFeed } from "../feeds/simulator/simulator.ts";
import { backfillCandles } from "./backfill.ts";
import { FirstStartBackfill, readBackfillStatus } from "./first-start.ts";

const duties = defaultDuties();
const M = 60_000;
// COMEX gold rolls Z26 → G27 at 27 Nov 00:00 IST (docs/simulator.md); MCX gold on 1 Dec.
const GC_ROLL = Date.UTC(2026, 10, 26, 18, 30);
const FROM = Date.UTC(2026, 10, 24, 6, 0);
const TO = Date.UTC(2026, 10, 28, 6, 0);

describe("backfillCandles: contracts and rolls", () => {
  it("records each contract's own series and the rolls it crosses; the next month has its past before its roll", async () => {
    const feed = createSimulatorFeed({ duties, seed: 11, now: () => FROM });
    feed.setInstruments?.(BUILT_IN_INSTRUMENTS);
    const inUse = new Set(BUILT_IN_INSTRUMENTS.map((s) => s.key));
    const { store, cleanup } = createTestStore();
    try {
      const result = await backfillCandles(store, feed.history?.(FROM, TO) ?? [], duties, {
        inUse,
      });
      const rolls = await store.contracts.rolls({ from: 0, to: TO, limit: 100 });
      expect(rolls.filter((r) => r.key === "GC")).toEqual([
        { key: "GC", at: GC_ROLL, from: "GCZ26", to: "GCG27" },
      ]);
      // Only keys in use roll: the next months quoted for their past are no key of their own.
      expect(rolls.every((r) => inUse.has(r.key))).toBe(true);
      expect(result.rolls).toBe(rolls.length);
      const dec = await store.contractCandles.range("GCZ26", 0, TO);
      const feb = await store.contractCandles.range("GCG27", 0, TO);
      expect(dec[0]?.timestamp).toBe(FROM);
      expect(dec.at(-1)?.timestamp).toBe(GC_ROLL - M);
      // February's own past from the start (quoted as GC@next), continuing after the roll.
      expect(feb[0]?.timestamp).toBe(FROM);
      expect(feb.at(-1)?.timestamp).toBe(TO - M);
      expect(feb.every((c) => c.source === "simulated")).toBe(true);
      // Its price path is continuous across the roll: no jump of a calendar spread.
      const [before, after] = feb.filter(
        (c) => c.timestamp === GC_ROLL - M || c.timestamp === GC_ROLL,
      );
      expect(Math.abs((after?.open ?? 0) - (before?.close ?? 0))).toBeLessThan(2);
      // December stood ~$20+ below February: the glued key's series jumps there.
      expect(
        (feb.find((c) => c.timestamp === GC_ROLL - M)?.close ?? 0) - (dec.at(-1)?.close ?? 0),
      ).toBeGreaterThan(5);
      expect(await store.instrumentCandles.first("GC@next", "1m")).toBeUndefined();
    } finally {
      await cleanup();
    }
  }, 120_000);
});

describe("the first start's backfill: the window", () => {
  it("makes no more past than the history kept (HISTORY_RETENTION_DAYS)", async () => {
    const feed = createSimulatorFeed({ duties, seed: 11, now: () => TO });
    feed.setInstruments?.(BUILT_IN_INSTRUMENTS);
    const { store, cleanup } = createTestStore();
    const said: string[] = [];
    try {
      const retentionMs = 2 * 60 * M;
      const backfill = new FirstStartBackfill({
        store,
        history: feed.history?.bind(feed),
        duties,
        inUse: new Set(BUILT_IN_INSTRUMENTS.map((s) => s.key)),
        retentionMs,
        notice: (text) => said.push(text),
        now: () => TO,
      });
      expect(await backfill.run()).toBe(true);
      const [first] = await store.candles.recent({
        symbol: "GC_BUY",
        timeframe: "1m",
        from: 0,
        to: TO,
        limit: 1_000_000,
      });
      expect(first?.timestamp).toBe(TO - retentionMs);
      expect(said.join("\n")).toMatch(/^Backfilled 0\.083 days of simulated history/);
      expect(await readBackfillStatus(store)).toMatchObject({ running: false, doneTo: TO });
    } finally {
      await cleanup();
    }
  }, 120_000);
});

describe("the first start's backfill: a crash", () => {
  // Three days with GC's roll at the start of the third (00:00 IST, a chunk's edge).
  const from = GC_ROLL - 2 * 86_400_000;
  const to = GC_ROLL + 86_400_000;
  // What GC_BUY is made of (COMEX gold, MCX gold, the rupee): the instruments whose minutes and
  // roll are compared; the others' would be written three times over for nothing.
  const inUse = new Set(["GC", "GOLD", "USDINR"]);
  const backfillOf = (store: Store) => {
    const feed = createSimulatorFeed({ duties, seed: 11, now: () => to });
    feed.setInstruments?.(BUILT_IN_INSTRUMENTS);
    return new FirstStartBackfill({
      store,
      history: feed.history?.bind(feed),
      duties,
      inUse,
      retentionMs: to - from,
      notice: () => {},
      now: () => to,
    });
  };
  const stored = async (store: Store) => ({
    rolls: await store.contracts.rolls({ from: 0, to, limit: 100 }),
    minutes: (await store.candles.all("GC_BUY", "1m")).map((c) => c.timestamp),
    december: (await store.contractCandles.range("GCZ26", 0, to)).length,
    february: (await store.contractCandles.range("GCG27", 0, to)).length,
  });

  it("resumes where it was stored, with no minute twice and no roll recorded back", async () => {
    const clean = createTestStore();
    const crashed = createTestStore();
    try {
      expect(await backfillOf(clean.store).run()).toBe(true);
      const whole = await stored(clean.store);
      expect(whole.rolls.filter((r) => r.key === "GC")).toEqual([
        { key: "GC", at: GC_ROLL, from: "GCZ26", to: "GCG27" },
      ]);

      // The process dies after storing the day that ends at GC's roll (its roll included) and
      // before saying so: the status still says the day before.
      const dying: Store = Object.create(crashed.store);
      Object.defineProperty(dying, "keyValues", {
        value: {
          ...crashed.store.keyValues,
          get: crashed.store.keyValues.get.bind(crashed.store.keyValues),
          set: async (key: string, value: { doneTo?: number }, now: number) => {
            if (value.doneTo === GC_ROLL) throw new Error("killed");
            return crashed.store.keyValues.set(key, value, now);
          },
        },
      });
      expect(await backfillOf(dying).run()).toBe(false);
      const status = await readBackfillStatus(crashed.store);
      expect(status).toMatchObject({ running: true });
      expect(status?.doneTo).toBeLessThan(GC_ROLL);
      expect((await crashed.store.contracts.rolls({ from: 0, to, limit: 100 })).length).toBe(
        whole.rolls.length,
      );

      // The next start carries on from there and ends where a run without the crash did.
      expect(await backfillOf(crashed.store).run()).toBe(true);
      expect(await stored(crashed.store)).toEqual(whole);
      expect(await readBackfillStatus(crashed.store)).toMatchObject({ running: false, doneTo: to });
      // Done: a later start makes none.
      expect(await backfillOf(crashed.store).run()).toBe(false);
    } finally {
      await clean.cleanup();
      await crashed.cleanup();
    }
  }, 300_000);
});
