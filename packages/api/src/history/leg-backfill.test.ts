import { defaultDuties, type InstrumentSpec, shippedInstrument } from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";
import { createTestStore, type TestStore } from "@spreadwatch/db/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSimulatorFeed } from "../feeds/simulator/simulator.ts";
import { LegHistoryBackfill } from "./leg-backfill.ts";

const M = 60_000;
const DAY = 86_400_000;
// 10:07:30 IST (04:37:30 UTC): inside the 10:00 IST hour, two and a half minutes into a 5m bucket.
const NOW = Date.parse("2026-11-20T04:37:30Z");
const next = shippedInstrument("GOLD@next") as InstrumentSpec;

let test: TestStore;
beforeEach(() => {
  test = createTestStore();
});
afterEach(() => test.cleanup());

function backfill(filled: string[][] = [], retentionMs = 400 * DAY, store = test.store) {
  const feed = createSimulatorFeed({ duties: defaultDuties(), now: () => NOW });
  return new LegHistoryBackfill(store, feed.historyOf?.bind(feed), {
    retentionMs,
    now: () => NOW,
    onFilled: (keys) => filled.push([...keys]),
  });
}

describe("LegHistoryBackfill", () => {
  it("fills the window up to the minute the instrument came into use, and says so", async () => {
    const filled: string[][] = [];
    await backfill(filled, 2 * DAY).fill([next]);
    const minutes = await test.store.instrumentCandles.all("GOLD@next", "1m");
    // The history window (here the 2 days kept), every minute, none from the current one on.
    expect(minutes).toHaveLength(2 * 1440);
    expect(minutes[0]?.timestamp).toBe(Date.parse("2026-11-18T04:37:00Z"));
    expect(minutes.at(-1)?.timestamp).toBe(Date.parse("2026-11-20T04:36:00Z"));
    expect(filled).toEqual([["GOLD@next"]]);
    // Every timeframe, as the recorder keeps them.
    const days = await test.store.instrumentCandles.all("GOLD@next", "1d");
    expect(days.length).toBeGreaterThanOrEqual(2);
  });

  it("fills only before an instrument's first stored minute, leaving the bucket it shares alone", async () => {
    // The recorder has stored the key's live candles from 10:05 IST on.
    const first = Date.parse("2026-11-20T04:35:00Z");
    const live = { open: 1, high: 2, low: 0.5, close: 1.5 };
    await test.store.instrumentCandles.save([
      { symbol: "GOLD@next", timeframe: "1m", timestamp: first, ...live },
      { symbol: "GOLD@next", timeframe: "5m", timestamp: first, ...live },
      {
        symbol: "GOLD@next",
        timeframe: "1h",
        timestamp: Date.parse("2026-11-20T04:30:00Z"),
        ...live,
      },
    ]);
    await backfill([], 2 * DAY).fill([next]);
    const minutes = await test.store.instrumentCandles.all("GOLD@next", "1m");
    expect(minutes.at(-2)?.timestamp).toBe(first - M);
    expect(minutes.at(-1)).toMatchObject({ timestamp: first, ...live });
    // The hour it shares with the live candles keeps theirs: a past written after them would
    // have moved its close back.
    const hours = await test.store.instrumentCandles.all("GOLD@next", "1h");
    expect(hours.at(-1)).toMatchObject({ timestamp: Date.parse("2026-11-20T04:30:00Z"), ...live });
    expect(hours.at(-2)?.timestamp).toBe(Date.parse("2026-11-20T03:30:00Z"));
  });

  it("leaves an instrument with the whole window alone, and does nothing without a feed's past", async () => {
    const filled: string[][] = [];
    const once = backfill(filled, 2 * DAY);
    await once.fill([next]);
    const before = await test.store.instrumentCandles.all("GOLD@next", "1m");
    await once.fill([next]);
    expect(await test.store.instrumentCandles.all("GOLD@next", "1m")).toEqual(before);
    expect(filled).toHaveLength(1);

    const none = new LegHistoryBackfill(test.store, undefined, { retentionMs: DAY });
    await none.fill([shippedInstrument("SILVER@next") as InstrumentSpec]);
    expect(await test.store.instrumentCandles.all("SILVER@next", "1m")).toEqual([]);
  });

  it("fills many instruments at once a few at a time, every one of them", async () => {
    const keys = ["GOLD@next", "SILVER@next", "COPPER@next", "CRUDEOIL@next", "ZINC", "LEAD"];
    const filled: string[][] = [];
    await backfill(filled, DAY).fill(keys.map((key) => shippedInstrument(key) as InstrumentSpec));
    for (const key of keys)
      expect((await test.store.instrumentCandles.all(key, "1m")).length, key).toBe(1440);
    // Passes of at most four: the memory a month of minutes takes is a few keys' at a time.
    expect(filled.map((group) => group.length)).toEqual([4, 2]);
    expect(filled.flat().sort()).toEqual([...keys].sort());
  });

  it("leaves nothing short for good when the server dies between its two writes", async () => {
    // What one uninterrupted fill stores: the key's mids and the minutes of each contract quoted.
    const reference = createTestStore();
    try {
      await backfill([], 2 * DAY, reference.store).fill([next]);
      const whole = await storedPast(reference.store);
      expect(whole.contracts.length).toBeGreaterThan(0);

      // The first fill dies (as a kill -9 would) once the first of the two kinds of write is
      // done, whichever comes first; a start after it fills again over the same file.
      const dying = crashingAtTheSecondWrite(test.store);
      await backfill([], 2 * DAY, dying.store).fill([next]);
      expect(dying.crashed()).toBe(true);
      await backfill([], 2 * DAY).fill([next]);
      expect(await storedPast(test.store)).toEqual(whole);
    } finally {
      await reference.cleanup();
    }
  });

  it("does not move the live simulator: its quotes are the same with or without a past made", async () => {
    const quotesOf = async (withPast: boolean) => {
      const feed = createSimulatorFeed({ duties: defaultDuties(), now: () => NOW });
      feed.setInstruments?.([next]);
      if (withPast) for (const _ of feed.historyOf?.([next], NOW - DAY, NOW) ?? []);
      const got: unknown[] = [];
      await feed.start((quote) => got.push(quote));
      await feed.stop();
      return got;
    };
    expect(await quotesOf(true)).toEqual(await quotesOf(false));
  });
});

/** GOLD@next's stored past: its one-minute mids and, per contract, how many minutes. */
async function storedPast(store: Store) {
  return {
    minutes: (await store.instrumentCandles.all("GOLD@next", "1m")).length,
    contracts: (await store.contractCandles.coverage("GOLD@next")).map((c) => [
      c.contract,
      c.minutes,
    ]),
  };
}

/**
 * `store`, but the first write of the other kind than the first one made (the key's candles
 * or a contract's minutes) throws: a process that died between the leg backfill's two writes.
 */
function crashingAtTheSecondWrite(store: Store) {
  let first: "instrument" | "contract" | undefined;
  let crashed = false;
  const guard = (kind: "instrument" | "contract") => {
    first ??= kind;
    if (crashed || first !== kind) {
      crashed = true;
      throw new Error("the process died here");
    }
  };
  const instrumentCandles: Store["instrumentCandles"] = Object.create(store.instrumentCandles);
  instrumentCandles.save = (rows) => {
    guard("instrument");
    return store.instrumentCandles.save(rows);
  };
  const contractCandles: Store["contractCandles"] = Object.create(store.contractCandles);
  contractCandles.write = (key, contract, source, rows) => {
    guard("contract");
    return store.contractCandles.write(key, contract, source, rows);
  };
  return { store: { ...store, instrumentCandles, contractCandles }, crashed: () => crashed };
}
