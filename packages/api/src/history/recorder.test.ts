import {
  aggregateCandles,
  applyQuote,
  bookIn,
  type Candle,
  defaultDuties,
  emptyPrices,
  type Quote,
  type SpreadDefinition,
} from "@spreadwatch/core";
import { createTestStore, type TestStore } from "@spreadwatch/db/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSimulatorFeed } from "../feeds/simulator/simulator.ts";
import { MarketHub } from "../market/hub.ts";
import { builtInDefinitions } from "../spreads/built-ins.ts";
import { SpreadRegistry } from "../spreads/registry.ts";
import { backfillCandles } from "./backfill.ts";
import { HistoryRecorder } from "./recorder.ts";

const duties = defaultDuties();
const M = 60_000;
const T = Date.parse("2026-11-20T09:15:00Z");

const ratio: SpreadDefinition = {
  id: 1,
  symbol: "SP1",
  name: "Gold/silver",
  legs: [
    { name: "g", instrument: "GOLD" },
    { name: "s", instrument: "SILVER" },
  ],
  formula: "g / s",
  shared: false,
  builtin: false,
  ownerId: 2,
  createdAt: T,
  updatedAt: T,
};

let test: TestStore;
let stored: SpreadDefinition[];
let registry: SpreadRegistry;
let hub: MarketHub;
let recorder: HistoryRecorder;
let minutes: Array<[string, Candle]>;

beforeEach(async () => {
  test = createTestStore();
  stored = [ratio];
  registry = new SpreadRegistry({ builtIns: builtInDefinitions(duties), load: async () => stored });
  await registry.reload();
  // As composition.ts builds it: the hub evaluates the registry's definitions for every listener.
  hub = new MarketHub(duties, undefined, undefined, registry);
  registry.subscribe((change) => hub.spreadsChanged(change));
  minutes = [];
  recorder = new HistoryRecorder(test.store, 400 * 86_400_000, registry);
  recorder.onMinuteClosed((symbol, candle) => minutes.push([symbol, candle]));
  registry.subscribe((change) => recorder.spreadsChanged(change));
  await recorder.start();
  hub.subscribe((update) => recorder.onUpdate(update));
});
afterEach(async () => {
  await recorder.stop();
  await test.cleanup();
});

const push = (...quotes: Quote[]) => {
  for (const quote of quotes) expect(hub.ingest(quote)).toBe(true);
};

describe("HistoryRecorder: the instruments' mid candles and the users' spreads", () => {
  it("records every quoted instrument's mid and both sides of a user spread, minute by minute", async () => {
    push(
      { source: "mcx", key: "GOLD", bid: 76000, ask: 76010, ts: T + 1_000 },
      { source: "mcx", key: "SILVER", bid: 90000, ask: 90040, ts: T + 2_000 },
      { source: "mcx", key: "GOLD", bid: 76020, ask: 76040, ts: T + 30_000 },
      { source: "fx", key: "USDINR", price: 84.1, ts: T + 40_000 },
      // A crossed book has no mid: the minute keeps its last one.
      { source: "mcx", key: "SILVER", bid: 90100, ask: 90000, ts: T + 50_000 },
      // The next minute closes the first (a crossed book gives the spread no value either).
      { source: "mcx", key: "SILVER", bid: 90000, ask: 90040, ts: T + M },
      { source: "mcx", key: "GOLD", bid: 76100, ask: 76120, ts: T + M + 1_000 },
    );
    await recorder.writePending();
    const legs = test.store.instrumentCandles;
    expect(await legs.all("GOLD", "1m")).toEqual([
      { timestamp: T, open: 76005, high: 76030, low: 76005, close: 76030 },
    ]);
    expect(await legs.all("SILVER", "1m")).toEqual([
      { timestamp: T, open: 90020, high: 90020, low: 90020, close: 90020 },
    ]);
    // Not closed yet: written at stop (below).
    expect(await legs.all("USDINR", "1m")).toEqual([]);
    // BUY takes g at its ask over s at its bid; SELL the reverse.
    const buy = await test.store.candles.all("SP1_BUY", "1m");
    expect(buy).toEqual([
      {
        timestamp: T,
        open: 76010 / 90000,
        high: 76040 / 90000,
        low: 76010 / 90000,
        close: 76040 / 90000,
      },
    ]);
    expect((await test.store.candles.all("SP1_SELL", "1m")).map((c) => c.close)).toEqual([
      76020 / 90040,
    ]);
    expect(minutes.filter(([s]) => s.startsWith("SP1"))).toEqual([
      ["SP1_BUY", buy[0]],
      ["SP1_SELL", expect.objectContaining({ close: 76020 / 90040 })],
    ]);
    expect(recorder.forming("SP1_BUY", "1m")?.close).toBe(76120 / 90000);
    await recorder.stop();
    expect(await legs.all("USDINR", "1h")).toEqual([
      {
        timestamp: Date.parse("2026-11-20T08:30:00Z"),
        open: 84.1,
        high: 84.1,
        low: 84.1,
        close: 84.1,
      },
    ]);
    expect((await legs.all("GOLD", "1m")).at(-1)?.close).toBe(76110);
  });

  it("records each exchange contract a key quotes on its own: a roll starts the new contract's series", async () => {
    const DEC = { contract: "GOLD26DECFUT", expiry: "2026-12-04" };
    const FEB = { contract: "GOLD27FEBFUT", expiry: "2027-02-05" };
    push(
      { source: "mcx", key: "GOLD", bid: 76000, ask: 76010, ts: T + 1_000, ...DEC },
      { source: "mcx", key: "GOLD", bid: 76020, ask: 76030, ts: T + 20_000, ...DEC },
      // The roll: GOLD now quotes February, about ₹1,000 above December.
      { source: "mcx", key: "GOLD", bid: 77000, ask: 77010, ts: T + M + 1_000, ...FEB },
      { source: "mcx", key: "GOLD", bid: 77040, ask: 77050, ts: T + 2 * M, ...FEB },
      // A quote naming no contract (a feed that does not know it) goes to no contract.
      { source: "mcx", key: "SILVER", bid: 90000, ask: 90040, ts: T + 2 * M },
    );
    await recorder.writePending();
    const contracts = test.store.contractCandles;
    expect(await contracts.range(DEC.contract, 0, T + 10 * M)).toEqual([
      { timestamp: T, open: 76005, high: 76025, low: 76005, close: 76025, source: "recorded" },
    ]);
    expect(await contracts.range(FEB.contract, 0, T + 10 * M)).toEqual([
      { timestamp: T + M, open: 77005, high: 77005, low: 77005, close: 77005, source: "recorded" },
    ]);
    await recorder.stop();
    expect((await contracts.range(FEB.contract, 0, T + 10 * M)).map((c) => c.close)).toEqual([
      77005, 77045,
    ]);
    expect((await contracts.coverage()).map((c) => c.contract)).toEqual([
      DEC.contract,
      FEB.contract,
    ]);
  });

  it("forgets a spread's recorded candles when its formula changes, and records it anew", async () => {
    push(
      { source: "mcx", key: "GOLD", bid: 76000, ask: 76010, ts: T },
      { source: "mcx", key: "SILVER", bid: 90000, ask: 90040, ts: T },
      { source: "mcx", key: "GOLD", bid: 76000, ask: 76010, ts: T + M },
    );
    await recorder.writePending();
    expect(await test.store.candles.all("SP1_BUY", "1m")).toHaveLength(1);
    // A new name alone keeps them.
    stored = [{ ...ratio, name: "G/S", updatedAt: T + 1 }];
    await registry.reload();
    await recorder.writePending();
    expect(await test.store.candles.all("SP1_BUY", "1m")).toHaveLength(1);
    stored = [{ ...ratio, formula: "g - s", updatedAt: T + 2 * M }];
    await registry.reload();
    await vi.waitFor(
      async () => expect(await test.store.candles.all("SP1_BUY", "1m")).toEqual([]),
      { timeout: 15_000 },
    );
    push(
      { source: "mcx", key: "GOLD", bid: 76000, ask: 76010, ts: T + 2 * M },
      { source: "mcx", key: "GOLD", bid: 76000, ask: 76010, ts: T + 3 * M },
    );
    await recorder.writePending();
    expect(await test.store.candles.all("SP1_BUY", "1m")).toEqual([
      { timestamp: T + 2 * M, open: -13990, high: -13990, low: -13990, close: -13990 },
    ]);
    // A deleted spread is no longer recorded.
    stored = [];
    await registry.reload();
    push({ source: "mcx", key: "GOLD", bid: 76000, ask: 76010, ts: T + 4 * M });
    await vi.waitFor(
      async () => expect(await test.store.candles.all("SP1_BUY", "1m")).toEqual([]),
      { timeout: 15_000 },
    );
    expect(recorder.forming("SP1_BUY", "1m")).toBeUndefined();
  });
});

describe("backfillCandles: the instruments' history", () => {
  it("gives every quoted instrument its mid candles of every timeframe, as the quotes make them", async () => {
    const from = T - 86_400_000;
    const feed = createSimulatorFeed({ duties, seed: 5, now: () => from });
    const batches = [...(feed.history?.(from, T) ?? [])];
    await backfillCandles(test.store, batches, duties);
    // The mid of each key's last quote before every minute's end, by core alone.
    const prices = emptyPrices();
    const closes = new Map<string, Map<number, number>>();
    for (const quotes of batches)
      for (const quote of quotes) {
        applyQuote(prices, quote);
        const book = bookIn(prices, quote.key) as { bid: number; ask: number };
        const minute = quote.ts - (quote.ts % M);
        const ofKey = closes.get(quote.key) ?? new Map<number, number>();
        ofKey.set(minute, (book.bid + book.ask) / 2);
        closes.set(quote.key, ofKey);
      }
    expect(closes.size).toBe(15);
    for (const [key, expected] of closes) {
      const got = await test.store.instrumentCandles.all(key, "1m");
      expect(got.length, key).toBe(1440);
      expect(new Map(got.map((c) => [c.timestamp, c.close])), key).toEqual(expected);
      const days = await test.store.instrumentCandles.all(key, "1d");
      expect(Math.max(...days.map((d) => d.high)), key).toBe(Math.max(...got.map((c) => c.high)));
      expect(days.at(-1)?.close, key).toBe(got.at(-1)?.close);
    }
  });
});

describe("HistoryRecorder: a coarse candle spanning a first start (docs/history.md)", () => {
  it("is made again from both parts' minutes once the backfill stored the part before", async () => {
    // 09:30 UTC is 15:00 IST: a 5-minute and an hour bucket start there. The server started in
    // the 09:33 minute; the backfill makes everything before it, and stores it late.
    const bucket = Date.parse("2026-11-20T09:30:00Z");
    const start = bucket + 3 * M;
    const steady = (ts: number): Quote[] => [
      { source: "fx", key: "USDINR", price: 84, ts },
      { source: "cme", key: "GC", bid: 2000, ask: 2000.5, ts },
    ];
    push(
      ...steady(start + 10_000),
      { source: "mcx", key: "GOLD", bid: 57280, ask: 57300, ts: start + 10_000 },
      { source: "mcx", key: "GOLD", bid: 57310, ask: 57330, ts: start + M + 20_000 },
      // The next 5 minutes: the recorder closes and writes 09:30–09:35 before the past is in.
      ...steady(start + 2 * M + 5_000),
      { source: "mcx", key: "GOLD", bid: 57270, ask: 57290, ts: start + 2 * M + 5_000 },
    );
    await recorder.writePending();
    const live = await test.store.candles.all("GC_BUY", "1m");
    const liveOpen = live[0]?.open as number;
    expect(live.map((c) => c.timestamp)).toEqual([start, start + M]);

    // The backfill's minutes of the bucket before the start, and its part of the coarse candles,
    // stored as backfillCandles stores them (merged into the buckets).
    const before = [
      {
        timestamp: bucket,
        open: liveOpen - 15,
        high: liveOpen - 5,
        low: liveOpen - 20,
        close: liveOpen - 10,
      },
      {
        timestamp: bucket + M,
        open: liveOpen - 10,
        high: liveOpen + 80,
        low: liveOpen - 12,
        close: liveOpen,
      },
      {
        timestamp: bucket + 2 * M,
        open: liveOpen,
        high: liveOpen + 2,
        low: liveOpen - 40,
        close: liveOpen + 1,
      },
    ];
    const backfilled = (symbol: string, minutes: Candle[]) =>
      ["1m", "5m", "1h"].flatMap((timeframe) =>
        (timeframe === "1m" ? minutes : aggregateCandles(minutes, timeframe as "5m" | "1h")).map(
          (c) => ({ symbol, timeframe, ...c }),
        ),
      );
    await test.store.candles.save(backfilled("GC_BUY", before));
    const goldBefore = before.map((c) => ({
      ...c,
      open: 57000,
      high: 57500,
      low: 56900,
      close: 57000,
    }));
    await test.store.instrumentCandles.save(backfilled("GOLD", goldBefore));
    // The store kept the recorder's open: the first live value, not the bucket's.
    const [stale] = await test.store.candles.recent({
      symbol: "GC_BUY",
      timeframe: "5m",
      limit: 1,
    });
    expect(stale?.open).toBe(liveOpen);

    await recorder.pastStored(start);
    const minutesOfBucket = (await test.store.candles.all("GC_BUY", "1m")).filter(
      (c) => c.timestamp < bucket + 5 * M,
    );
    const [whole] = aggregateCandles(minutesOfBucket, "5m");
    expect(whole?.open).toBe(liveOpen - 15);
    expect(await test.store.candles.all("GC_BUY", "5m")).toEqual([whole]);
    // The instrument's mid candle likewise; the hour is still forming, so the backfill's part
    // stored first keeps its open in the store and is left alone.
    const [gold] = await test.store.instrumentCandles.all("GOLD", "5m");
    expect(gold).toMatchObject({ timestamp: bucket, open: 57000, high: 57500, low: 56900 });
    const [hour] = await test.store.candles.all("GC_BUY", "1h");
    expect(hour?.open).toBe(liveOpen - 15);
    expect(recorder.forming("GC_BUY", "1h")?.timestamp).toBe(bucket);
  });
});
