import { defaultDuties, type InstrumentSpec, shippedInstrument } from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { SimulatorModel } from "./model.ts";
import { BRENT_WTI, CURVES, EXTRA_LEGS, MINI_BASES, MINUTES_PER_YEAR } from "./params.ts";
import { seededRandom } from "./random.ts";

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);
const duties = defaultDuties();
const spec = (key: string) => shippedInstrument(key) as InstrumentSpec;
/** A root's path itself, no contract: what its months hang on. */
const path = (key: string): InstrumentSpec => ({ ...spec(key), month: null });

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};
const diffs = (xs: number[], lag: number) => xs.slice(lag).map((x, i) => x - (xs[i] as number));
const logReturns = (xs: number[]) => xs.slice(1).map((x, i) => Math.log(x / (xs[i] as number)));
const correlation = (a: number[], b: number[]) => {
  const [ma, mb] = [mean(a), mean(b)];
  return mean(a.map((x, i) => (x - ma) * ((b[i] as number) - mb))) / (sd(a) * sd(b));
};
/**
 * Variance of `lag`-step changes over `lag` × the variance of one-step changes: 1 for a random
 * walk at every lag, falling towards 0 for a series that keeps coming back.
 */
const varianceRatio = (xs: number[], lag: number) =>
  sd(diffs(xs, lag)) ** 2 / (lag * sd(diffs(xs, 1)) ** 2);

/** Each key's mid (and contract expiry) every `stepMs` from START for `days`. */
function sample(keys: InstrumentSpec[], days: number, stepMs: number, seed = 5) {
  const model = new SimulatorModel(seededRandom(1), duties, { seed, start: START });
  const mids = keys.map(() => [] as number[]);
  const expiries = keys.map(() => [] as (string | undefined)[]);
  for (let ts = START; ts < START + days * DAY; ts += stepMs) {
    model.moveTo(ts);
    keys.forEach((s, i) => {
      const { mid, contract } = model.midOf(s, ts);
      mids[i]?.push(mid);
      expiries[i]?.push(contract?.expiry);
    });
  }
  return { mids, expiries };
}

describe("simulator term structures, over two years every 6 hours", () => {
  const keys = ["GOLD", "GOLD@next", "GOLD@far", "CL", "CL@next", "NG", "NG@next", "BZ"];
  const run = sample(keys.map(spec), 730, 6 * 3_600_000);
  const series = Object.fromEntries(keys.map((k, i) => [k, run.mids[i] as number[]]));
  const expiry = Object.fromEntries(keys.map((k, i) => [k, run.expiries[i] as string[]]));
  const of = (key: string) => series[key] as number[];

  it("orders the months of GOLD by carry: near < next < far, the gap ≈ rate × time", () => {
    const [near, next, far] = [of("GOLD"), of("GOLD@next"), of("GOLD@far")];
    near.forEach((x, i) => {
      expect(
        x < (next[i] as number) && (next[i] as number) < (far[i] as number),
        `sample ${i}`,
      ).toBe(true);
    });
    // The annual rate the next–near gap implies, across every roll: the documented carry.
    const implied = near.map((x, i) => {
      const years =
        (Date.parse(expiry["GOLD@next"]?.[i] as string) - Date.parse(expiry.GOLD?.[i] as string)) /
        (365 * DAY);
      return Math.log((next[i] as number) / x) / years;
    });
    expect(Math.abs(mean(implied) - CURVES.GC.slope.mean)).toBeLessThan(0.005);
  });

  it("mean-reverts calendar spreads: bounded over half a year where a random walk's would grow", () => {
    for (const [near, next] of [
      ["GOLD", "GOLD@next"],
      ["CL", "CL@next"],
      ["NG", "NG@next"],
    ] as const) {
      const spread = of(next).map((x, i) => x - (of(near)[i] as number));
      // 180 days = 720 samples: a random walk's ratio is 1; these measure ~0.07–0.13.
      expect(varianceRatio(spread, 720), `${next} − ${near}`).toBeLessThan(0.3);
    }
  });

  it("keeps a calendar spread where it is while both months trade: a roll moves no z (docs/history.md)", () => {
    for (const [near, next] of [
      ["CL", "CL@next"],
      ["NG", "NG@next"],
    ] as const) {
      let pairs = 0;
      for (let i = 1; i < of(near).length; i++) {
        const same =
          expiry[near]?.[i] === expiry[near]?.[i - 1] &&
          expiry[next]?.[i] === expiry[next]?.[i - 1];
        if (!same) continue;
        pairs++;
        const spread = (j: number) => (of(next)[j] as number) - (of(near)[j] as number);
        expect(Math.abs(spread(i) - spread(i - 1)), `${next} − ${near}, sample ${i}`).toBeLessThan(
          1e-9,
        );
      }
      expect(pairs).toBeGreaterThan(2000);
    }
  });

  it("lets energy swing between contango and backwardation", () => {
    for (const [near, next] of [
      ["CL", "CL@next"],
      ["NG", "NG@next"],
    ] as const) {
      const spread = of(next).map((x, i) => x - (of(near)[i] as number));
      const backwardated = spread.filter((s) => s < 0).length / spread.length;
      expect(backwardated, next).toBeGreaterThan(0.1);
      expect(backwardated, next).toBeLessThan(0.6);
    }
  });

  it("keeps Brent about its documented spread over WTI", () => {
    const spread = of("BZ").map((x, i) => x - (of("CL")[i] as number));
    expect(Math.abs(mean(spread) - BRENT_WTI.mean)).toBeLessThan(0.5 * BRENT_WTI.sd);
    expect(sd(spread)).toBeLessThan(2 * BRENT_WTI.sd);
  });
});

describe("simulator minis and base metals, over a month of minutes", () => {
  // Futures where a contract matters (minis against big), the roots' paths for volatility.
  const entries: Record<string, InstrumentSpec> = {
    GOLD: spec("GOLD"),
    GOLDM: spec("GOLDM"),
    GC: spec("GC"),
    MGC: spec("MGC"),
    CRUDEOIL: spec("CRUDEOIL"),
    CRUDEOILM: spec("CRUDEOILM"),
    CL: spec("CL"),
    BZ: spec("BZ"),
    "gold path": path("GC"),
    "copper path": path("HG"),
    ZINC: path("ZINC"),
    ALUMINIUM: path("ALUMINIUM"),
    LEAD: path("LEAD"),
    NICKEL: path("NICKEL"),
  };
  const names = Object.keys(entries);
  const run = sample(Object.values(entries), 30, 60_000, 8);
  const of = (name: string) => run.mids[names.indexOf(name)] as number[];
  const expiryOf = (name: string) => run.expiries[names.indexOf(name)] as (string | undefined)[];

  it("follows each big contract with a mini's small basis", () => {
    for (const [mini, big] of [
      ["GOLDM", "GOLD"],
      ["MGC", "GC"],
      ["CRUDEOILM", "CRUDEOIL"],
    ] as const) {
      // Only where both quote the same expiry (GOLDM lists every month, GOLD every other).
      const same = of(mini)
        .map((x, i) =>
          expiryOf(mini)[i] === expiryOf(big)[i] ? x - (of(big)[i] as number) : Number.NaN,
        )
        .filter((x) => !Number.isNaN(x));
      expect(same.length, mini).toBeGreaterThan(10_000);
      const p = MINI_BASES[mini];
      expect(Math.abs(mean(same) - p.mean), mini).toBeLessThan(0.35 * p.sd);
      expect(sd(same) / p.sd, mini).toBeGreaterThan(0.7);
      expect(sd(same) / p.sd, mini).toBeLessThan(1.3);
      // Small beside the contract's own moves over the month.
      expect(sd(same), mini).toBeLessThan(0.5 * sd(of(big)));
    }
  });

  it("moves each base metal with its documented volatility, tied to copper more than to gold", () => {
    for (const metal of ["ZINC", "ALUMINIUM", "LEAD", "NICKEL"] as const) {
      const r = logReturns(of(metal));
      const annualised = Math.sqrt(mean(r.map((x) => x * x)) * MINUTES_PER_YEAR);
      expect(annualised / EXTRA_LEGS[metal].annualVol, metal).toBeGreaterThan(0.85);
      expect(annualised / EXTRA_LEGS[metal].annualVol, metal).toBeLessThan(1.15);
    }
    const zinc = logReturns(of("ZINC"));
    // Documented: ≈ 0.62 with copper, 0.24 with gold, 0.51 with aluminium.
    expect(correlation(zinc, logReturns(of("copper path")))).toBeGreaterThan(0.52);
    expect(correlation(zinc, logReturns(of("copper path")))).toBeLessThan(0.72);
    expect(correlation(zinc, logReturns(of("gold path")))).toBeLessThan(0.35);
    expect(correlation(zinc, logReturns(of("ALUMINIUM")))).toBeGreaterThan(0.4);
  });

  it("moves Brent with WTI", () => {
    expect(correlation(logReturns(of("BZ")), logReturns(of("CL")))).toBeGreaterThan(0.95);
  });
});
