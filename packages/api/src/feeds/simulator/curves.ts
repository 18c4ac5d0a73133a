import {
  type Contract,
  contractFor,
  type Duties,
  type InstrumentSpec,
  instrument,
  parity,
  parseInstrumentKey,
} from "@spreadwatch/core";
import {
  BRENT_WTI,
  CURVE_ROOTS,
  CURVES,
  type CurveRoot,
  EXTRA_LEG_IDS,
  EXTRA_LEGS,
  type ExtraLegId,
  LEG_IDS,
  LEGS,
  type LegId,
  MINI_BASES,
  MINI_IDS,
  MINUTES_PER_YEAR,
  type MiniId,
  type OuId,
  ROLL_DAYS,
  ROOT_MODELS,
  type SlowOuParams,
  UNKNOWN_ANNUAL_VOL,
  UNKNOWN_LEVEL,
} from "./params.ts";
import { MarketPath, ouDecay, ouStep, type PathLevels, type PathSpec } from "./path.ts";
import { hashGaussian, hashString, seededRandom } from "./random.ts";

/**
 * The catalogue beyond the fifteen built-in keys (docs/simulator.md, "Every instrument"): term
 * structures over the built-in path's legs, a second path for the base metals and the minis'
 * bases, hourly slopes, Brent, and a plain walk for keys nothing here knows. Everything is a
 * function of the seed and the time, like the built-in path, on streams of its own.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const YEAR_MS = MINUTES_PER_YEAR * 60_000;
/** IST is UTC+5:30 all year: the calendar day a quote belongs to. */
const IST_OFFSET_MS = 19_800_000;

/** The base metals' legs and the minis' bases, on streams the built-in path never draws. */
const EXTRA_PATH: PathSpec<ExtraLegId, MiniId> = {
  legIds: EXTRA_LEG_IDS,
  legs: EXTRA_LEG_IDS.map((id) => EXTRA_LEGS[id]),
  ouIds: MINI_IDS,
  ous: MINI_IDS.map((id) => MINI_BASES[id]),
  streams: { dayOwn: 100, minuteOwn: 120, ou: 140 },
};
/** Each contract month's place on its root's curve (300 + i, once the slopes' hourly OUs); Brent–WTI (320). */
const SHAPE_STREAM = 300;
const BRENT_STREAM = 320;
/**
 * A contract's shape draw is the slope's sd over a month, / √2: two adjacent months then differ by
 * one month of the old slope's spread (energy backwardated between about a third of its months).
 */
const SHAPE_YEARS = 1 / (12 * Math.SQRT2);

/**
 * An OU stepped exactly once an hour from hashed shocks, linear between its hourly knots: a
 * curve's slope or the Brent–WTI spread moves over days, so an hour's straight line loses
 * nothing, and it needs no sequence of draws at all.
 */
export class HourlyOu {
  /** Hour h (since 1970): the value is between knot h and knot h + 1. */
  private hour = Number.NaN;
  private knot = 0;
  private nextKnot = 0;
  private readonly decay: number;
  private readonly warmupHours: number;

  constructor(
    private readonly seed: number,
    private readonly stream: number,
    private readonly p: SlowOuParams,
  ) {
    this.decay = ouDecay(p.halfLifeHours, 1);
    this.warmupHours = Math.ceil(20 * p.halfLifeHours);
  }

  at(ts: number): number {
    const h = Math.floor(ts / HOUR_MS);
    if (h !== this.hour) {
      const ahead = h - this.hour;
      // Forward by less than a warm-up: step there (the same knots). Else (a cold start, a jump
      // back or far ahead) warm up from the mean over 20 half-lives, like the minute OUs.
      let x = ahead > 0 && ahead <= this.warmupHours ? this.knot : this.p.mean;
      for (
        let m = ahead > 0 && ahead <= this.warmupHours ? this.hour : h - this.warmupHours;
        m < h;
        m++
      ) {
        x = this.step(x, m);
      }
      this.knot = x;
      this.nextKnot = this.step(x, h);
      this.hour = h;
    }
    const f = (ts - h * HOUR_MS) / HOUR_MS;
    return this.knot + (this.nextKnot - this.knot) * f;
  }

  private step(x: number, h: number): number {
    return ouStep(x, this.p, this.decay, hashGaussian(this.seed, this.stream, h));
  }
}

/** The built-in path's values the curves hang on. */
export interface BaseLevels {
  legs: Record<LegId, number>;
  ous: Record<OuId, number>;
}

/** A key's price at the model's time, and the contract it is of (futures the calendar knows). */
export interface CatalogueMid {
  mid: number;
  contract?: Contract;
}

/** The level of an unknown key's walk: 100, or 1,000 ticks where ticks are coarse. */
export function unknownLevel(tick: number): number {
  return tick > 0.1 ? 1000 * tick : UNKNOWN_LEVEL;
}

function isBuiltInLeg(root: string): root is LegId {
  return (LEG_IDS as readonly string[]).includes(root);
}

/** P̄: the level a root's path reverts to, what its carry is a fraction of. */
function referenceLevel(root: CurveRoot): number {
  return isBuiltInLeg(root) ? LEGS[root].level : EXTRA_LEGS[root as ExtraLegId].level;
}

export class CatalogueCurves {
  private now = Number.NaN;
  private extra: MarketPath<ExtraLegId, MiniId> | undefined;
  private extraLevels: PathLevels<ExtraLegId, MiniId> | undefined;
  private readonly brent: HourlyOu;
  /** Contracts' shapes by root and expiry: a backfill asks ~10⁷ times for a handful of months. */
  private readonly shapes = new Map<CurveRoot, Map<number, number>>();
  /** Unknown keys' walks, one single-leg path each, by key. */
  private readonly walks = new Map<string, MarketPath<"walk", never>>();
  /** Per key: its root, and its contract on the IST day it was last asked for. */
  private readonly plans = new Map<string, KeyPlan>();

  constructor(
    private readonly seed: number,
    private readonly duties: Duties,
    private readonly base: () => BaseLevels,
  ) {
    this.brent = new HourlyOu(seed, BRENT_STREAM, BRENT_WTI);
  }

  moveTo(ts: number): void {
    this.now = ts;
    this.extra?.moveTo(ts);
    this.extraLevels = undefined;
    for (const walk of this.walks.values()) walk.moveTo(ts);
  }

  /** Forgets the walks of keys no longer in use, and every key's plan (its spec may change). */
  retain(keys: ReadonlySet<string>): void {
    for (const key of this.walks.keys()) if (!keys.has(key)) this.walks.delete(key);
    this.plans.clear();
  }

  /** Whether the simulator has a model for this instrument (else it walks). */
  static knows(spec: Pick<InstrumentSpec, "key">): boolean {
    return Object.hasOwn(ROOT_MODELS, parseInstrumentKey(spec.key).root);
  }

  /** The mid of a future of a known root, or an unknown key's walk, at the model's time. */
  mid(spec: InstrumentSpec, ts: number): CatalogueMid {
    let plan = this.plans.get(spec.key);
    if (!plan) {
      const { root } = parseInstrumentKey(spec.key);
      plan = { root, known: Object.hasOwn(ROOT_MODELS, root), day: Number.NaN };
      this.plans.set(spec.key, plan);
    }
    if (!plan.known) return { mid: this.walk(spec) };
    if (!spec.month) return { mid: this.curve(plan.root, undefined) };
    this.contractOf(spec, plan, ts);
    // No contract (past the calendar's reach): the root's path itself.
    const mid = this.curve(plan.root, plan.expiry);
    return plan.contract ? { mid, contract: plan.contract } : { mid };
  }

  /**
   * Price of `root`'s contract expiring at `expiry` (epoch ms; undefined: the tenor its path
   * stands for): P + P̄ · (ḡ · (τ − τ̄) + s), with P̄ the root's long-run level, ḡ its mean carry
   * and s the contract month's own place on the curve (docs/simulator.md, "Term structure"). The
   * carry is in price, not in proportion to P, and nothing in it moves with time but τ, so the
   * spread between two contracts stays put while both trade: each contract's path is continuous
   * with its own past, and a roll onto the month that was `@next` moves the quote by the calendar
   * spread and a spread's z-score by nothing (docs/history.md).
   */
  private curve(root: string, expiry: number | undefined): number {
    const model = ROOT_MODELS[root];
    switch (model?.kind) {
      case "curve": {
        const curveRoot = model.root as CurveRoot;
        const level = isBuiltInLeg(curveRoot)
          ? this.base().legs[curveRoot]
          : this.extraPath().legs[curveRoot as ExtraLegId];
        if (expiry === undefined) return level;
        const tau = (expiry - this.now) / YEAR_MS;
        const { slope, tenorDays } = CURVES[curveRoot];
        const carry = slope.mean * (tau - tenorDays / 365) + this.shape(curveRoot, expiry);
        return level + referenceLevel(curveRoot) * carry;
      }
      case "parity": {
        const cme = this.curve(
          model.of,
          expiry === undefined ? undefined : expiry + model.offsetDays * DAY_MS,
        );
        const { legs, ous } = this.base();
        return (
          parity(cme, instrument(model.of), legs.USDINR, this.duties[model.of]) + ous[model.of]
        );
      }
      case "mini":
        return model.scale * this.curve(model.of, expiry) + this.extraPath().ous[model.basis];
      case "brent":
        return this.curve("CL", expiry) + this.brent.at(this.now);
      default:
        throw new Error(`no model for ${root}`);
    }
  }

  /** A contract month's offset on its root's curve (a fraction of P̄), fixed for its life. */
  private shape(root: CurveRoot, expiry: number): number {
    let ofRoot = this.shapes.get(root);
    if (!ofRoot) {
      ofRoot = new Map();
      this.shapes.set(root, ofRoot);
    }
    let shape = ofRoot.get(expiry);
    if (shape === undefined) {
      const d = new Date(expiry);
      const month = d.getUTCFullYear() * 12 + d.getUTCMonth();
      const stream = SHAPE_STREAM + CURVE_ROOTS.indexOf(root);
      shape = CURVES[root].slope.sd * SHAPE_YEARS * hashGaussian(this.seed, stream, month);
      ofRoot.set(expiry, shape);
    }
    return shape;
  }

  private extraPath(): PathLevels<ExtraLegId, MiniId> {
    if (!this.extra) {
      // Made on first use and kept: its knots are the seed's wherever it starts, and only its
      // sub-minute wiggle comes from this sequence.
      this.extra = new MarketPath(this.seed, seededRandom(this.seed ^ 0x5eed_ca7a), EXTRA_PATH);
      this.extra.moveTo(this.now);
    }
    this.extraLevels ??= this.extra.levels();
    return this.extraLevels;
  }

  private walk(spec: InstrumentSpec): number {
    let walk = this.walks.get(spec.key);
    if (!walk) {
      // Streams from the key, clear of every fixed stream: an even number with bit 30 set.
      const stream = (hashString(spec.key) | 0x4000_0000) & ~1;
      walk = new MarketPath(this.seed, seededRandom(this.seed ^ hashString(spec.key)), {
        legIds: ["walk"],
        legs: [{ level: unknownLevel(spec.tick), annualVol: UNKNOWN_ANNUAL_VOL }],
        ouIds: [],
        ous: [],
        streams: { dayOwn: stream, minuteOwn: stream + 1, ou: 0 },
      });
      walk.moveTo(this.now);
      this.walks.set(spec.key, walk);
    }
    return walk.levels().legs.walk;
  }

  /** The contract a spec names on the quote's IST day, worked out once a day. */
  private contractOf(spec: InstrumentSpec, plan: KeyPlan, ts: number): void {
    const day = Math.floor((ts + IST_OFFSET_MS) / DAY_MS);
    if (plan.day === day) return;
    const today = new Date(day * DAY_MS).toISOString().slice(0, 10);
    const style = spec.exchange === "MCX" ? "mcx" : "cme";
    plan.contract = contractFor(plan.root, spec.month ?? "near", today, ROLL_DAYS, style);
    plan.expiry = plan.contract && Date.parse(plan.contract.expiry);
    plan.day = day;
  }
}

interface KeyPlan {
  root: string;
  /** Whether ROOT_MODELS has it; else the key walks. */
  known: boolean;
  /** The IST day (days since 1970) `contract` is for. */
  day: number;
  contract?: Contract | undefined;
  /** The contract's last trading day, epoch ms (its UTC midnight). */
  expiry?: number | undefined;
}
