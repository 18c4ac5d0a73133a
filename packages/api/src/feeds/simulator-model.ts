import { type Duties, INSTRUMENTS, type InstrumentId, parity, type Quote } from "@spreadwatch/core";
import { gaussian, roundToTick } from "./random.ts";

/**
 * Levels and microstructure close enough to the real markets that the dashboard looks like a
 * trading day: tick sizes, typical bid/ask widths and how far MCX strays from parity (in INR).
 */
interface InstrumentModel {
  id: InstrumentId;
  start: number;
  cmeTick: number;
  cmeWidthTicks: [number, number];
  mcxTick: number;
  mcxWidthTicks: [number, number];
  /** Standard deviation of MCX's premium over parity, INR; the premium mean-reverts to 0. */
  premiumSd: number;
  /** Which common factor drives the CME price: metals move together, energy together. */
  factor: "metals" | "energy";
  volPerSqrtSecond: number;
}

const MODELS: Record<InstrumentId, InstrumentModel> = {
  GC: {
    id: "GC",
    start: 4050,
    cmeTick: 0.1,
    cmeWidthTicks: [1, 3],
    mcxTick: 1,
    mcxWidthTicks: [3, 15],
    premiumSd: 120,
    factor: "metals",
    volPerSqrtSecond: 2e-4,
  },
  SI: {
    id: "SI",
    start: 50.5,
    cmeTick: 0.005,
    cmeWidthTicks: [1, 3],
    mcxTick: 1,
    mcxWidthTicks: [10, 40],
    premiumSd: 250,
    factor: "metals",
    volPerSqrtSecond: 3e-4,
  },
  HG: {
    id: "HG",
    start: 5.05,
    cmeTick: 0.0005,
    cmeWidthTicks: [1, 3],
    mcxTick: 0.05,
    mcxWidthTicks: [1, 5],
    premiumSd: 1.5,
    factor: "metals",
    volPerSqrtSecond: 2.5e-4,
  },
  NG: {
    id: "NG",
    start: 4.3,
    cmeTick: 0.001,
    cmeWidthTicks: [1, 3],
    mcxTick: 0.1,
    mcxWidthTicks: [1, 4],
    premiumSd: 1.5,
    factor: "energy",
    volPerSqrtSecond: 5e-4,
  },
  CL: {
    id: "CL",
    start: 61,
    cmeTick: 0.01,
    cmeWidthTicks: [1, 2],
    mcxTick: 1,
    mcxWidthTicks: [1, 3],
    premiumSd: 12,
    factor: "energy",
    volPerSqrtSecond: 3e-4,
  },
};

/** Mean reversion of premiums: about two minutes, so spreads cross zero several times an hour. */
const PREMIUM_REVERSION_PER_SECOND = 1 / 120;

interface State {
  usdinr: number;
  cmeMid: Record<InstrumentId, number>;
  premium: Record<InstrumentId, number>;
  spotBasis: { XAUUSD: number; XAGUSD: number };
  nifty: number;
  giftPremium: number;
}

export class SimulatorModel {
  private readonly state: State;

  constructor(
    private readonly random: () => number,
    private readonly duties: Duties,
  ) {
    this.state = {
      usdinr: 88.6,
      cmeMid: Object.fromEntries(
        INSTRUMENTS.map((i) => [i.id, MODELS[i.id].start]),
      ) as State["cmeMid"],
      premium: Object.fromEntries(
        INSTRUMENTS.map((i) => [i.id, gaussian(random) * MODELS[i.id].premiumSd]),
      ) as State["premium"],
      spotBasis: { XAUUSD: 22, XAGUSD: 0.2 },
      nifty: 26_000,
      giftPremium: 60,
    };
  }

  /** Moves every latent price by `dt` seconds. */
  step(dt: number): void {
    const s = this.state;
    const root = Math.sqrt(dt);
    const shocks = { metals: gaussian(this.random), energy: gaussian(this.random) };
    for (const model of Object.values(MODELS)) {
      // 70 % common factor, 30 % own noise: gold and silver move together, as they do.
      const shock = 0.7 * shocks[model.factor] + Math.sqrt(1 - 0.49) * gaussian(this.random);
      s.cmeMid[model.id] *= Math.exp(model.volPerSqrtSecond * root * shock);
      s.premium[model.id] = ornsteinUhlenbeck(
        s.premium[model.id],
        model.premiumSd,
        dt,
        this.random,
      );
    }
    s.usdinr *= Math.exp(4e-5 * root * gaussian(this.random));
    s.nifty *= Math.exp(1.5e-4 * root * gaussian(this.random));
    s.giftPremium = 60 + ornsteinUhlenbeck(s.giftPremium - 60, 35, dt, this.random);
    s.spotBasis.XAUUSD = 22 + ornsteinUhlenbeck(s.spotBasis.XAUUSD - 22, 3, dt, this.random);
    s.spotBasis.XAGUSD = 0.2 + ornsteinUhlenbeck(s.spotBasis.XAGUSD - 0.2, 0.05, dt, this.random);
  }

  cmeQuote(id: InstrumentId, ts: number): Quote {
    const model = MODELS[id];
    return {
      source: "cme",
      key: id,
      ts,
      ...this.book(this.state.cmeMid[id], model.cmeTick, model.cmeWidthTicks),
    };
  }

  mcxQuote(id: InstrumentId, ts: number): Quote {
    const model = MODELS[id];
    const inst = INSTRUMENTS.find((i) => i.id === id);
    if (!inst) throw new Error(`unknown instrument ${id}`);
    const fair = parity(this.state.cmeMid[id], inst, this.state.usdinr, this.duties[id]);
    const mid = fair + this.state.premium[id];
    return {
      source: "mcx",
      key: inst.mcxKey,
      ts,
      ...this.book(mid, model.mcxTick, model.mcxWidthTicks),
    };
  }

  spotQuote(key: "XAUUSD" | "XAGUSD", ts: number): Quote {
    const future = key === "XAUUSD" ? this.state.cmeMid.GC : this.state.cmeMid.SI;
    const tick = key === "XAUUSD" ? 0.01 : 0.001;
    return {
      source: "spot",
      key,
      ts,
      price: roundToTick(future - this.state.spotBasis[key], tick),
    };
  }

  indexQuote(key: "NIFTY50" | "GIFTNIFTY", ts: number): Quote {
    const price = key === "NIFTY50" ? this.state.nifty : this.state.nifty + this.state.giftPremium;
    return { source: "index", key, ts, price: roundToTick(price, 0.05) };
  }

  fxQuote(ts: number): Quote {
    return { source: "fx", key: "USDINR", ts, price: roundToTick(this.state.usdinr, 0.0025) };
  }

  private book(
    mid: number,
    tick: number,
    widthTicks: [number, number],
  ): { bid: number; ask: number } {
    const [min, max] = widthTicks;
    const width = min + Math.floor(this.random() * (max - min + 1));
    const bid = roundToTick(mid - (width * tick) / 2, tick);
    return { bid, ask: roundToTick(bid + width * tick, tick) };
  }
}

/** One exact step of an Ornstein–Uhlenbeck process with stationary deviation `sd` around 0. */
function ornsteinUhlenbeck(x: number, sd: number, dt: number, random: () => number): number {
  const decay = Math.exp(-PREMIUM_REVERSION_PER_SECOND * dt);
  return x * decay + sd * Math.sqrt(1 - decay * decay) * gaussian(random);
}
