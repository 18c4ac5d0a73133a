import { describe, expect, it } from "vitest";
import { LEG_IDS, LEGS, OU_IDS, OUS } from "./params.ts";
import { bridgeAt, bridgeStep, MarketPath, MINUTE_MS, ouDecay, ouSigma, ouStep } from "./path.ts";
import { hashGaussian, seededRandom } from "./random.ts";

const DAY_MS = 24 * 60 * MINUTE_MS;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs: number[]) => {
  const m = mean(xs);
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length;
};

describe("ouStep", () => {
  // GOLD's deviation: θ = ln 2 / 60 per minute, σ = sd·√(2θ); 400 days of minutes.
  const p = { mean: -120, sd: 180, halfLifeMinutes: 60 };
  const decay = ouDecay(p.halfLifeMinutes, 1);
  const xs: number[] = [];
  let x = p.mean;
  for (let k = 0; k < 400 * 1440; k++) {
    x = ouStep(x, p, decay, hashGaussian(1, 0, k));
    xs.push(x);
  }

  it("reverts to its mean μ", () => {
    expect(Math.abs(mean(xs) - p.mean)).toBeLessThan(0.1 * p.sd);
  });

  it("has the stationary variance σ²/2θ within 20 %", () => {
    const theta = Math.LN2 / p.halfLifeMinutes;
    const expected = ouSigma(p) ** 2 / (2 * theta);
    expect(expected).toBeCloseTo(p.sd ** 2, 6);
    expect(variance(xs) / expected).toBeGreaterThan(0.8);
    expect(variance(xs) / expected).toBeLessThan(1.2);
  });

  it("forgets half of a deviation in one half-life", () => {
    // Lag-60 autocorrelation of an OU is e^(−θ·60) = 0.5.
    const m = mean(xs);
    let num = 0;
    for (let k = 60; k < xs.length; k++)
      num += ((xs[k] as number) - m) * ((xs[k - 60] as number) - m);
    const autocorrelation = num / (xs.length - 60) / variance(xs);
    expect(autocorrelation).toBeGreaterThan(0.4);
    expect(autocorrelation).toBeLessThan(0.6);
  });
});

describe("Brownian bridge", () => {
  it("lands on its pin after the last step and at the end time", () => {
    const random = seededRandom(3);
    let x = 10;
    for (let left = 60; left >= 1; left--) x = bridgeStep(x, 12, left, 0.5, random() * 2 - 1);
    expect(x).toBeCloseTo(12, 9);
    expect(bridgeAt(10, 12, 0, 60, 60, 1, 3)).toBe(12);
    expect(bridgeAt(10, 12, 0, 0, 60, 1, 3)).toBe(10);
    // Halfway: on the straight line plus √(v·30·½) of noise.
    expect(bridgeAt(10, 12, 0, 30, 60, 2, 1)).toBeCloseTo(11 + Math.sqrt(30), 9);
  });
});

describe("MarketPath", () => {
  const T = Date.UTC(2026, 10, 23, 9, 0); // a minute boundary

  it("is where a continuous run is when started cold: a restart rejoins the path", () => {
    const running = new MarketPath(5, seededRandom(1));
    for (let ts = T - 3 * DAY_MS; ts <= T; ts += 15_000) running.moveTo(ts);
    const restarted = new MarketPath(5, seededRandom(2));
    restarted.moveTo(T);
    const a = running.levels();
    const b = restarted.levels();
    for (const id of LEG_IDS) expect(b.legs[id] / a.legs[id], id).toBeCloseTo(1, 9);
    for (const id of OU_IDS)
      expect(Math.abs(b.ous[id] - a.ous[id]), id).toBeLessThan(1e-4 * OUS[id].sd);
  });

  it("moves a little within a minute, and differently for another seed", () => {
    const path = new MarketPath(5, seededRandom(1));
    path.moveTo(T);
    const before = path.levels();
    path.moveTo(T + 20_000);
    const after = path.levels();
    for (const id of LEG_IDS) {
      expect(after.legs[id], id).not.toBe(before.legs[id]);
      expect(Math.abs(Math.log(after.legs[id] / before.legs[id])), id).toBeLessThan(0.005);
    }
    const other = new MarketPath(6, seededRandom(1));
    other.moveTo(T);
    expect(other.levels().legs.GC).not.toBeCloseTo(before.legs.GC, 0);
  });

  it("keeps every level near its anchor year after year", () => {
    const path = new MarketPath(5, seededRandom(1));
    for (let year = 2020; year <= 2040; year++) {
      path.moveTo(Date.UTC(year, 5, 1));
      const { legs } = path.levels();
      // The 90-day pull keeps log(price / level) within ~4 stationary sds (gold ±25 %, gas ±100 %).
      for (const id of LEG_IDS) {
        const sd = LEGS[id].annualVol / Math.sqrt(365) / Math.sqrt((2 * Math.LN2) / 90);
        expect(Math.abs(Math.log(legs[id] / LEGS[id].level)), `${id} ${year}`).toBeLessThan(4 * sd);
      }
    }
  });
});
