import {
  LEG_IDS,
  LEGS,
  LEVEL_HALF_LIFE_DAYS,
  type LegId,
  type LegParams,
  MINUTES_PER_DAY,
  MINUTES_PER_YEAR,
  OU_IDS,
  OUS,
  type OuId,
  type OuParams,
} from "./params.ts";
import { gaussian, hashGaussian } from "./random.ts";

/**
 * The simulated market as one fixed path in time: every value at minute k is a function of the
 * seed and k alone (its shocks are `hashGaussian(seed, stream, k)`), so a server restarted an
 * hour or a week later lands where the path is now — where the last recorded candle left it if
 * the restart was quick, where the market would have drifted to if it was not — and the 30-day
 * backfill is that same path's past. Between minute knots, prices follow a Brownian bridge drawn
 * from an ordinary seeded sequence: that detail is not needed to line up across restarts.
 * Pure computation: no clock, no timers, no I/O.
 */

export const MINUTE_MS = 60_000;

/** e^(−θ·dt) for a process with this half-life (dt and half-life in the same unit). */
export function ouDecay(halfLife: number, dt: number): number {
  return Math.exp((-Math.LN2 * dt) / halfLife);
}

/** σ of dX = θ(μ − X)dt + σ dW, per √minute, for a stationary sd: σ = sd·√(2θ). */
export function ouSigma(p: Pick<OuParams, "sd" | "halfLifeMinutes">): number {
  return p.sd * Math.sqrt((2 * Math.LN2) / p.halfLifeMinutes);
}

/**
 * One exact step of an OU process: X' = μ + (X − μ)·decay + sd·√(1 − decay²)·shock, which keeps
 * its stationary distribution N(μ, sd²) however long the step.
 */
export function ouStep(
  x: number,
  p: Pick<OuParams, "mean" | "sd">,
  decay: number,
  shock: number,
): number {
  return p.mean + (x - p.mean) * decay + p.sd * Math.sqrt(1 - decay * decay) * shock;
}

/**
 * One step of a random walk pinned to `end` after `stepsLeft` steps (a Brownian bridge with
 * per-step sd `sd`): the drift closes the gap evenly, the noise shrinks as the pin nears.
 */
export function bridgeStep(
  x: number,
  end: number,
  stepsLeft: number,
  sd: number,
  shock: number,
): number {
  return x + (end - x) / stepsLeft + sd * Math.sqrt((stepsLeft - 1) / stepsLeft) * shock;
}

/**
 * A Brownian bridge's value at `t`, knowing it is `x` at `t0` and `end` at `t1`: mean on the
 * straight line, variance v·(t − t0)(t1 − t)/(t1 − t0) for a variance `v` per unit of time.
 */
export function bridgeAt(
  x: number,
  end: number,
  t0: number,
  t: number,
  t1: number,
  variancePerUnit: number,
  shock: number,
): number {
  if (t >= t1) return end;
  if (t <= t0) return x;
  const f = (t - t0) / (t1 - t0);
  return x + (end - x) * f + Math.sqrt(variancePerUnit * (t - t0) * (1 - f)) * shock;
}

/** The common shocks a leg can load on, drawn once per step (day or minute). */
interface Shocks {
  metals: number;
  energy: number;
  /** Copper's own shock: base metals follow copper more than gold (docs/simulator.md). */
  copper: number;
  /** A shock the base metals share among themselves. */
  base: number;
}

/** A leg's shock: its factor loadings (metals, energy, …) blended with its own. */
function legShock(leg: LegParams, own: number, shock: (source: keyof Shocks) => number): number {
  if (leg.loadings) {
    let common = 0;
    let shared = 0;
    for (const [source, loading] of Object.entries(leg.loadings) as [keyof Shocks, number][]) {
      common += loading * shock(source);
      shared += loading * loading;
    }
    return common + Math.sqrt(1 - shared) * own;
  }
  if (!leg.factor) return own;
  const loading = leg.loading ?? 0;
  return loading * shock(leg.factor) + Math.sqrt(1 - loading * loading) * own;
}

// Hash streams: one per series and time scale, so no two series share a shock by accident.
const STREAM = {
  dayFactor: { metals: 1, energy: 2, base: 5 },
  minuteFactor: { metals: 3, energy: 4, base: 6 },
} as const;

/**
 * The series one path moves: legs (log-price processes) and OU deviations, each with its own
 * hash streams. The fifteen built-in keys' path is `BUILT_IN_PATH`; the catalogue's other
 * instruments run on paths of their own (curves.ts), with new streams, so adding them
 * leaves every built-in draw where it was.
 */
export interface PathSpec<L extends string = string, O extends string = string> {
  legIds: readonly L[];
  legs: readonly LegParams[];
  ouIds: readonly O[];
  ous: readonly OuParams[];
  /** Stream of leg i's own day shock (dayOwn + i), minute shock (minuteOwn + i), OU j's (ou + j). */
  streams: { dayOwn: number; minuteOwn: number; ou: number };
}

export const BUILT_IN_PATH: PathSpec<LegId, OuId> = {
  legIds: LEG_IDS,
  legs: LEG_IDS.map((id) => LEGS[id]),
  ouIds: OU_IDS,
  ous: OU_IDS.map((id) => OUS[id]),
  streams: { dayOwn: 10, minuteOwn: 20, ou: 40 },
};

/** Copper's own streams on the built-in path (HG is leg 2): base metals load on them. */
const COPPER_STREAMS = {
  day: BUILT_IN_PATH.streams.dayOwn + LEG_IDS.indexOf("HG"),
  minute: BUILT_IN_PATH.streams.minuteOwn + LEG_IDS.indexOf("HG"),
};

/** The constants a path steps with, worked out once per spec. */
class Compiled {
  /** Per-minute sd of each leg's log price. */
  readonly legMinuteSd: number[];
  /**
   * Each leg's stationary sd of log(price / level), from its daily sd and the 90-day pull:
   * sd_day / √(2θ), e.g. ~6 % for gold, ~25 % for natural gas.
   */
  readonly legLevelSd: number[];
  /** Sub-minute variance per ms: the legs' log variance, the OUs' σ². */
  readonly variancePerMs: number[];
  readonly ouMinuteDecay: number[];
  /** An OU forgets its start after 20 half-lives (2⁻²⁰): where a cold start begins its warm-up. */
  readonly ouWarmupMinutes: number[];

  constructor(spec: PathSpec) {
    this.legMinuteSd = spec.legs.map((leg) => leg.annualVol / Math.sqrt(MINUTES_PER_YEAR));
    this.legLevelSd = spec.legs.map(
      (leg) =>
        (leg.annualVol * Math.sqrt(MINUTES_PER_DAY / MINUTES_PER_YEAR)) /
        Math.sqrt((2 * Math.LN2) / LEVEL_HALF_LIFE_DAYS),
    );
    this.variancePerMs = [...this.legMinuteSd, ...spec.ous.map(ouSigma)].map(
      (sd) => (sd * sd) / 60_000,
    );
    this.ouMinuteDecay = spec.ous.map((p) => ouDecay(p.halfLifeMinutes, 1));
    this.ouWarmupMinutes = spec.ous.map((p) => Math.ceil(20 * p.halfLifeMinutes));
  }
}

const LEG_DAY_DECAY = ouDecay(LEVEL_HALF_LIFE_DAYS, 1);

export interface PathLevels<L extends string = LegId, O extends string = OuId> {
  /** Prices: CME mids (USD), USDINR, NIFTY 50 on the built-in path. */
  legs: Record<L, number>;
  /** MCX deviations from parity (INR), GIFT NIFTY's premium (points), spot bases (USD). */
  ous: Record<O, number>;
}

export class MarketPath<L extends string = LegId, O extends string = OuId> {
  private readonly spec: PathSpec<L, O>;
  private readonly c: Compiled;
  /** Day d's knot of every leg's log deviation, cached: d counts days since 1970-01-01 UTC. */
  private day = -1;
  private dayKnot: number[] = [];
  private nextDayKnot: number[] = [];
  /** Minute k: the path is between knot k (at k·60 s) and knot k + 1. */
  private minute = 0;
  private knotNext: number[] = [];
  /** The legs' log deviations, then the OU values, at `time`. */
  private current: number[] = [];
  private now = Number.NaN;

  constructor(
    private readonly seed: number,
    private readonly random: () => number,
    spec?: PathSpec<L, O>,
  ) {
    this.spec = spec ?? (BUILT_IN_PATH as unknown as PathSpec<L, O>);
    this.c = new Compiled(this.spec);
  }

  get time(): number {
    return this.now;
  }

  /**
   * Moves the path to `ts` (epoch ms ≥ 0). Forward by a few days or less it walks minute by
   * minute, each knot from the last; anywhere else it jumps straight there.
   */
  moveTo(ts: number): void {
    const target = Math.max(0, ts);
    if (!(target >= this.now) || target - this.now > 3 * MINUTES_PER_DAY * MINUTE_MS) {
      this.seek(target);
    }
    while (target >= (this.minute + 1) * MINUTE_MS) this.nextMinute();
    const t1 = (this.minute + 1) * MINUTE_MS;
    for (let i = 0; i < this.current.length; i++) {
      this.current[i] = bridgeAt(
        this.current[i] as number,
        this.knotNext[i] as number,
        this.now,
        target,
        t1,
        this.c.variancePerMs[i] as number,
        gaussian(this.random),
      );
    }
    this.now = target;
  }

  levels(): PathLevels<L, O> {
    const { legIds, legs: params, ouIds } = this.spec;
    const legs = {} as Record<L, number>;
    legIds.forEach((id, i) => {
      legs[id] = (params[i] as LegParams).level * Math.exp(this.current[i] as number);
    });
    const ous = {} as Record<O, number>;
    ouIds.forEach((id, j) => {
      ous[id] = this.current[legIds.length + j] as number;
    });
    return { legs, ous };
  }

  /** The knots of minute k straight from the seed: the leg bridges from day start, OUs warmed up. */
  private seek(ts: number): void {
    const k = Math.floor(ts / MINUTE_MS);
    const d = Math.floor(k / MINUTES_PER_DAY);
    this.loadDay(d);
    let legs = [...this.dayKnot];
    for (let m = d * MINUTES_PER_DAY; m < k; m++) legs = this.stepLegs(legs, m);
    const ous = this.spec.ous.map((p, j) => {
      let x = p.mean;
      for (let m = k - (this.c.ouWarmupMinutes[j] as number); m < k; m++) {
        x = this.stepOu(x, j, m);
      }
      return x;
    });
    this.minute = k;
    this.current = [...legs, ...ous];
    this.knotNext = this.stepKnots(this.current, k);
    this.now = k * MINUTE_MS;
  }

  private nextMinute(): void {
    this.current = this.knotNext;
    this.minute += 1;
    this.now = this.minute * MINUTE_MS;
    this.knotNext = this.stepKnots(this.current, this.minute);
  }

  /** Knot k + 1 from knot k. */
  private stepKnots(knots: readonly number[], k: number): number[] {
    const n = this.spec.legs.length;
    const legs = this.stepLegs(knots.slice(0, n), k);
    const ous = this.spec.ous.map((_, j) => this.stepOu(knots[n + j] as number, j, k));
    return [...legs, ...ous];
  }

  /** The common shocks of minute k (or day `k` with `day`), each drawn only when a leg asks. */
  private shocks(k: number, day: boolean): (source: keyof Shocks) => number {
    const drawn: Partial<Shocks> = {};
    const f = day ? STREAM.dayFactor : STREAM.minuteFactor;
    const streams: Shocks = {
      metals: f.metals,
      energy: f.energy,
      copper: day ? COPPER_STREAMS.day : COPPER_STREAMS.minute,
      base: f.base,
    };
    return (source) => {
      drawn[source] ??= hashGaussian(this.seed, streams[source], k);
      return drawn[source];
    };
  }

  /** The legs one minute on from minute k, bridged to the end of k's day. */
  private stepLegs(legs: readonly number[], k: number): number[] {
    const d = Math.floor(k / MINUTES_PER_DAY);
    this.loadDay(d);
    const stepsLeft = (d + 1) * MINUTES_PER_DAY - k;
    const shocks = this.shocks(k, false);
    const own = this.spec.streams.minuteOwn;
    return this.spec.legs.map((leg, i) =>
      bridgeStep(
        legs[i] as number,
        this.nextDayKnot[i] as number,
        stepsLeft,
        this.c.legMinuteSd[i] as number,
        legShock(leg, hashGaussian(this.seed, own + i, k), shocks),
      ),
    );
  }

  private stepOu(x: number, j: number, k: number): number {
    return ouStep(
      x,
      this.spec.ous[j] as OuParams,
      this.c.ouMinuteDecay[j] as number,
      hashGaussian(this.seed, this.spec.streams.ou + j, k),
    );
  }

  /**
   * Day knots d and d + 1: a daily OU of each leg's log deviation, from 0 on 1970-01-01 — about
   * 20,000 steps the first time, one step a day after.
   */
  private loadDay(d: number): void {
    if (d === this.day) return;
    if (d === this.day + 1) {
      this.dayKnot = this.nextDayKnot;
    } else {
      let knot = this.spec.legs.map(() => 0);
      for (let day = 0; day < d; day++) knot = this.stepDay(knot, day);
      this.dayKnot = knot;
    }
    this.nextDayKnot = this.stepDay(this.dayKnot, d);
    this.day = d;
  }

  private stepDay(knot: readonly number[], day: number): number[] {
    const shocks = this.shocks(day, true);
    const own = this.spec.streams.dayOwn;
    return this.spec.legs.map((leg, i) =>
      ouStep(
        knot[i] as number,
        { mean: 0, sd: this.c.legLevelSd[i] as number },
        LEG_DAY_DECAY,
        legShock(leg, hashGaussian(this.seed, own + i, day), shocks),
      ),
    );
  }
}
