import { createHash } from "node:crypto";
import {
  BUILT_IN_INSTRUMENTS,
  contractFor,
  defaultDuties,
  groupOfExchange,
  type InstrumentSpec,
  parseInstrumentKey,
  type Quote,
  quotesBook,
  SHIPPED_INSTRUMENTS,
  shippedInstrument,
} from "@spreadwatch/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SimulatorModel } from "./model.ts";
import { ROLL_DAYS } from "./params.ts";
import { seededRandom } from "./random.ts";
import { createSimulatorFeed, STEP_MS } from "./simulator.ts";

const T = Date.UTC(2026, 10, 23, 4, 0);
const HOUR = 3_600_000;
const duties = defaultDuties();
// The start's burst ends with GC at T; then the hash of every quote (see the first test below).
const RECORDED_GC_AT_T = { source: "cme", key: "GC", ts: T, bid: 4427.4, ask: 4427.6 };
const RECORDED_SHA = "47a9bdd548f10755f3fb4f3d439b23aa817eefb54112cfdfdd56dc6cc59bace0";
const spec = (key: string) => shippedInstrument(key) as InstrumentSpec;
const istDay = (ts: number) => new Date(ts + 19_800_000).toISOString().slice(0, 10);
const mid = (q: Quote) =>
  (q.bid !== undefined ? ((q.bid as number) + (q.ask as number)) / 2 : q.price) as number;

/** The feed's quotes at exactly `ts` (one history sample). */
function at(feed: ReturnType<typeof createSimulatorFeed>, ts: number): Map<string, Quote> {
  const [batch] = [...(feed.history?.(ts, ts + 1) ?? [])];
  return new Map((batch ?? []).map((q) => [q.key, q]));
}

/** An admin's own instrument: nothing in the simulator knows it. */
const custom = (fields: Partial<InstrumentSpec>): InstrumentSpec => ({
  key: "MYGOLD",
  exchange: "MCX",
  name: "My gold",
  unit: "INR / g",
  currency: "INR",
  lotUnits: 1,
  tick: 0.5,
  decimals: 1,
  month: "near",
  ...fields,
});

afterEach(() => {
  vi.useRealTimers();
});

describe("simulator catalogue: the fifteen as before", () => {
  it("quotes the fifteen built-in keys exactly as recorded while setInstruments is never called", () => {
    // A regression record, seed 21: 6 hours of history every 20 s and the start's burst, bit for
    // bit. First recorded before the simulator knew the catalogue (commit 7ad0f31); recorded
    // again when the backfill got a model and random streams of its own (it runs beside the live
    // feed since the first start listens at once: docs/history.md, "The first start").
    let clock = T - 6 * HOUR;
    const feed = createSimulatorFeed({ duties, seed: 21, now: () => clock });
    const quotes: Quote[] = [];
    for (const batch of feed.history?.(clock, T) ?? []) quotes.push(...batch);
    clock = T;
    feed.start((q) => quotes.push(q));
    feed.stop();
    expect(quotes).toHaveLength(16_215);
    expect(quotes.at(-15)).toEqual(RECORDED_GC_AT_T);
    expect(createHash("sha256").update(JSON.stringify(quotes)).digest("hex")).toBe(RECORDED_SHA);
  });

  it("leaves the live market as it is while it makes history", () => {
    const live = (withHistory: boolean) => {
      let clock = T - 6 * HOUR;
      const feed = createSimulatorFeed({ duties, seed: 21, now: () => clock });
      if (withHistory) for (const _ of feed.history?.(clock, T) ?? []);
      clock = T;
      const quotes: Quote[] = [];
      feed.start((q) => quotes.push(q));
      feed.stop();
      return quotes;
    };
    expect(live(true)).toEqual(live(false));
  });
});

describe("simulator catalogue: every instrument in use", () => {
  it("quotes every shipped instrument: finite, a book for futures, its exchange's group, the calendar's contract", () => {
    const feed = createSimulatorFeed({ duties, seed: 3, now: () => T });
    feed.setInstruments?.(SHIPPED_INSTRUMENTS);
    const quotes: Quote[] = [];
    feed.start((q) => quotes.push(q));
    feed.stop();
    const byKey = new Map(quotes.map((q) => [q.key, q]));
    expect([...byKey.keys()].sort()).toEqual(SHIPPED_INSTRUMENTS.map((s) => s.key).sort());
    for (const s of SHIPPED_INSTRUMENTS) {
      const q = byKey.get(s.key) as Quote;
      expect(q.source, s.key).toBe(groupOfExchange(s.exchange));
      expect(q.ts, s.key).toBe(T);
      if (!quotesBook(s)) {
        expect(Number.isFinite(q.price) && (q.price as number) > 0, s.key).toBe(true);
        expect(q.contract, s.key).toBeUndefined();
        continue;
      }
      const [bid, ask] = [q.bid as number, q.ask as number];
      expect(Number.isFinite(bid) && bid > 0 && bid < ask, `${s.key} ${bid} ${ask}`).toBe(true);
      // In exchange ticks.
      expect(Math.abs(bid / s.tick - Math.round(bid / s.tick)), s.key).toBeLessThan(1e-6);
      const { root } = parseInstrumentKey(s.key);
      const style = s.exchange === "MCX" ? "mcx" : "cme";
      const contract = contractFor(root, s.month ?? "near", istDay(T), ROLL_DAYS, style);
      expect({ contract: q.contract, expiry: q.expiry }, s.key).toEqual({
        contract: contract?.symbol,
        expiry: contract?.expiry,
      });
    }
    // The backfill has them all too.
    const history = [...(feed.history?.(T - 2 * HOUR, T) ?? [])];
    expect(history).toHaveLength(360);
    for (const batch of history) expect(batch).toHaveLength(SHIPPED_INSTRUMENTS.length);
  });

  it("starts live where the backfill of a catalogue instrument ends", () => {
    let clock = T - HOUR;
    const feed = createSimulatorFeed({ duties, seed: 4, now: () => clock });
    feed.setInstruments?.([spec("ZINC"), spec("GOLD@next"), spec("BZ@far"), spec("GOLDM")]);
    const history = [...(feed.history?.(clock, T) ?? [])];
    const last = new Map((history.at(-1) ?? []).map((q) => [q.key, mid(q)]));
    clock = T;
    const live: Quote[] = [];
    feed.start((q) => live.push(q));
    feed.stop();
    for (const q of live) {
      // 20 seconds on from the last history sample: well within 0.2 %.
      expect(Math.abs(mid(q) / (last.get(q.key) as number) - 1), q.key).toBeLessThan(0.002);
    }
  });

  it("rolls a selector on the calendar's day, in IST, and the new contract's price continues from the curve", () => {
    const feed = createSimulatorFeed({ duties, seed: 5, now: () => T });
    feed.setInstruments?.([spec("GOLD"), spec("GOLD@next"), spec("GC"), spec("GC@next")]);
    // GOLD Dec 2026 expires 4 Dec: near until 30 Nov IST, whose midnight is 18:30 UTC.
    const goldRoll = Date.UTC(2026, 10, 30, 18, 30);
    const before = at(feed, goldRoll - 1);
    const after = at(feed, goldRoll);
    expect(before.get("GOLD")?.contract).toBe("GOLD26DECFUT");
    expect(before.get("GOLD@next")?.contract).toBe("GOLD27FEBFUT");
    expect(after.get("GOLD")).toMatchObject({ contract: "GOLD27FEBFUT", expiry: "2027-02-05" });
    expect(after.get("GOLD@next")?.contract).toBe("GOLD27APRFUT");
    const goldBefore = mid(before.get("GOLD") as Quote);
    const febBefore = mid(before.get("GOLD@next") as Quote);
    const goldAfter = mid(after.get("GOLD") as Quote);
    // A real gap (two months of carry, ~₹1,000), not a glued series: Feb goes on as it was.
    expect(goldAfter - goldBefore).toBeGreaterThan(500);
    expect(Math.abs(goldAfter - febBefore)).toBeLessThan(30);
    // COMEX gold rolls before first notice: Z26 until 26 Nov IST.
    const gcRoll = Date.UTC(2026, 10, 26, 18, 30);
    expect(at(feed, gcRoll - 1).get("GC")?.contract).toBe("GCZ26");
    expect(at(feed, gcRoll).get("GC")).toMatchObject({ contract: "GCG27", expiry: "2027-02-24" });
    expect(at(feed, gcRoll).get("GC@next")?.contract).toBe("GCJ27");
  });

  it("adds and removes instruments while running without touching the others", () => {
    const run = (change: boolean) => {
      vi.useFakeTimers();
      let clock = T;
      const feed = createSimulatorFeed({ duties, seed: 9, now: () => clock });
      feed.setInstruments?.([...BUILT_IN_INSTRUMENTS, spec("GOLD@next")]);
      const quotes: Quote[] = [];
      feed.start((q) => quotes.push(q));
      for (let step = 1; step <= 60; step++) {
        clock += STEP_MS;
        vi.advanceTimersByTime(STEP_MS);
        if (change && step === 30) {
          feed.setInstruments?.([spec("ZINC"), ...BUILT_IN_INSTRUMENTS]);
        }
      }
      feed.stop();
      vi.useRealTimers();
      return quotes;
    };
    const steady = run(false);
    const changed = run(true);
    const changedAt = T + 30 * STEP_MS;
    const others = (qs: Quote[]) => qs.filter((q) => q.key !== "ZINC" && q.key !== "GOLD@next");
    expect(others(changed)).toEqual(others(steady));
    expect(others(steady).length).toBeGreaterThan(100);
    // ZINC quotes from the very next step on, GOLD@next stops.
    const zinc = changed.filter((q) => q.key === "ZINC");
    expect(zinc[0]?.ts).toBe(changedAt + STEP_MS);
    expect(zinc.length).toBeGreaterThan(1);
    expect(changed.filter((q) => q.key === "GOLD@next" && q.ts > changedAt)).toEqual([]);
    expect(steady.filter((q) => q.key === "GOLD@next" && q.ts > changedAt).length).toBeGreaterThan(
      0,
    );
  });
});

describe("simulator catalogue: keys it does not know", () => {
  it("quotes an admin's own instrument from a plain walk around 100 (or 1,000 ticks), never crashing", () => {
    const eurusd = custom({
      key: "EURUSD",
      exchange: "FX",
      unit: "USD / EUR",
      tick: 0.0001,
      decimals: 4,
      month: null,
    });
    const feed = createSimulatorFeed({ duties, seed: 6, now: () => T });
    feed.setInstruments?.([
      custom({}),
      eurusd,
      // Hostile: a duplicate, a zero tick, an exchange nobody knows, a key that is not one.
      custom({ name: "again" }),
      custom({ key: "ZEROTICK", exchange: "CME", tick: 0 }),
      custom({ key: "ODD", exchange: "NASDAQ" as InstrumentSpec["exchange"] }),
      custom({ key: "not a key" }),
    ]);
    const quotes: Quote[] = [];
    feed.start((q) => quotes.push(q));
    feed.stop();
    expect(quotes.map((q) => q.key).sort()).toEqual(["EURUSD", "MYGOLD", "ZEROTICK"]);
    const byKey = new Map(quotes.map((q) => [q.key, q]));
    const mygold = byKey.get("MYGOLD") as Quote;
    expect(mygold.source).toBe("mcx");
    expect(mygold.contract).toBeUndefined();
    // Tick ₹0.5 is coarse: the walk is about 1,000 ticks (₹500), within its ~8 % stationary sd ×4.
    expect(Math.abs(mid(mygold) / 500 - 1)).toBeLessThan(0.35);
    expect((mygold.bid as number) < (mygold.ask as number)).toBe(true);
    const fx = byKey.get("EURUSD") as Quote;
    expect(fx.source).toBe("fx");
    expect(Math.abs((fx.price as number) / 100 - 1)).toBeLessThan(0.35);
    expect(Number.isFinite(mid(byKey.get("ZEROTICK") as Quote))).toBe(true);

    // Year after year it stays a positive price near its level: the 90-day pull of every leg.
    const model = new SimulatorModel(seededRandom(1), duties, { seed: 6, start: T });
    for (let year = 0; year < 10; year++) {
      const ts = T + year * 365 * 24 * HOUR;
      model.moveTo(ts);
      const level = model.midOf(eurusd, ts).mid;
      expect(level, `year ${year}`).toBeGreaterThan(60);
      expect(level, `year ${year}`).toBeLessThan(160);
    }
  });
});
