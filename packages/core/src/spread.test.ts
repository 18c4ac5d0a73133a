import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INSTRUMENTS, instrument } from "./instrument.ts";
import {
  buySpread,
  indexSpread,
  isCrossed,
  mid,
  parity,
  sellSpread,
  spotSpread,
} from "./spread.ts";

// Hand-worked examples, one per instrument, all at USDINR 84.00. The arithmetic was done in
// 40-digit decimal, so the expectations below are exact to the digits shown; toBeCloseTo(x, 4)
// (|error| < 0.00005) proves the code is right to well under a paisa.
const USDINR = 84;

describe("parity and executable spreads, worked by hand", () => {
  it("Gold: USD/oz → INR/10 g with 6 % duty", () => {
    // factor = 10 / 31.1034768 = 0.32150746568627980522
    // bid: 2650.00 × 0.32150746568627980522 = 851.99478406864148384
    //      × 84 = 71567.561861765884642 ; × 1.06 = 75861.615573471837721
    // BUY  = mcx ask 76420 − 75861.615573471837721 = 558.384426528162279
    // ask: 2650.40 × 0.32150746568627980522 = 852.12338705491599576
    //      × 84 = 71578.364512612943644 ; × 1.06 = 75873.066383369720262
    // SELL = mcx bid 76400 − 75873.066383369720262 = 526.933616630279738
    const gc = instrument("GC");
    expect(parity(2650, gc, USDINR, 0.06)).toBeCloseTo(75861.61557347, 4);
    const cme = { bid: 2650.0, ask: 2650.4 };
    const mcx = { bid: 76400, ask: 76420 };
    const buy = buySpread(cme, mcx, gc, USDINR, 0.06);
    expect(buy?.spread).toBeCloseTo(558.38442653, 4);
    expect(buy?.parity).toBeCloseTo(75861.61557347, 4);
    expect(buy?.cme).toBe(2650.0);
    expect(buy?.mcx).toBe(76420);
    const sell = sellSpread(cme, mcx, gc, USDINR, 0.06);
    expect(sell?.spread).toBeCloseTo(526.93361663, 4);
    expect(sell?.parity).toBeCloseTo(75873.06638337, 4);
    expect(sell?.cme).toBe(2650.4);
    expect(sell?.mcx).toBe(76400);
  });

  it("Silver: USD/oz → INR/kg with 6 % duty", () => {
    // factor = 1000 / 31.1034768 = 32.150746568627980522
    // bid: 31.20 × 32.150746568627980522 = 1003.1032929411929923
    //      × 84 = 84260.676607060211352 ; × 1.06 = 89316.317203483824033
    // BUY  = 89530 − 89316.317203483824033 = 213.682796516175967
    // ask: 31.23 × 32.150746568627980522 = 1004.0678153382518317
    //      × 84 = 84341.696488413153863 ; × 1.06 = 89402.198277717943095
    // SELL = 89500 − 89402.198277717943095 = 97.801722282056905
    const si = instrument("SI");
    const cme = { bid: 31.2, ask: 31.23 };
    const mcx = { bid: 89500, ask: 89530 };
    expect(buySpread(cme, mcx, si, USDINR, 0.06)?.spread).toBeCloseTo(213.68279652, 4);
    expect(sellSpread(cme, mcx, si, USDINR, 0.06)?.spread).toBeCloseTo(97.80172228, 4);
  });

  it("Copper: USD/lb → INR/kg, no duty", () => {
    // bid: 4.1500 × 2.20462262185 = 9.1491838806775 ; × 84 = 768.53144597691
    // BUY  = 790.50 − 768.53144597691 = 21.96855402309
    // ask: 4.1520 × 2.20462262185 = 9.1535931259212 ; × 84 = 768.9018225773808
    // SELL = 790.00 − 768.9018225773808 = 21.0981774226192
    const hg = instrument("HG");
    const cme = { bid: 4.15, ask: 4.152 };
    const mcx = { bid: 790, ask: 790.5 };
    expect(buySpread(cme, mcx, hg, USDINR, 0)?.parity).toBeCloseTo(768.53144598, 6);
    expect(buySpread(cme, mcx, hg, USDINR, 0)?.spread).toBeCloseTo(21.96855402, 6);
    expect(sellSpread(cme, mcx, hg, USDINR, 0)?.spread).toBeCloseTo(21.09817742, 6);
  });

  it("Natural Gas: same unit, currency only", () => {
    // BUY  = 275.40 − 3.250 × 84 = 275.40 − 273.00 = 2.40
    // SELL = 275.00 − 3.255 × 84 = 275.00 − 273.42 = 1.58
    const ng = instrument("NG");
    const cme = { bid: 3.25, ask: 3.255 };
    const mcx = { bid: 275, ask: 275.4 };
    expect(buySpread(cme, mcx, ng, USDINR, 0)?.spread).toBeCloseTo(2.4, 6);
    expect(sellSpread(cme, mcx, ng, USDINR, 0)?.spread).toBeCloseTo(1.58, 6);
  });

  it("Crude Oil: same unit, currency only", () => {
    // BUY  = 5902 − 70.10 × 84 = 5902 − 5888.40 = 13.60
    // SELL = 5900 − 70.12 × 84 = 5900 − 5890.08 = 9.92
    const cl = instrument("CL");
    const cme = { bid: 70.1, ask: 70.12 };
    const mcx = { bid: 5900, ask: 5902 };
    expect(buySpread(cme, mcx, cl, USDINR, 0)?.spread).toBeCloseTo(13.6, 6);
    expect(sellSpread(cme, mcx, cl, USDINR, 0)?.spread).toBeCloseTo(9.92, 6);
  });

  it("applies a configured duty instead of the default", () => {
    // 2650 × 0.32150746568627980522 × 84 × 1.15 = 71567.561861765884642 × 1.15
    //   = 82302.696141030767338
    expect(parity(2650, instrument("GC"), USDINR, 0.15)).toBeCloseTo(82302.69614103, 4);
  });
});

describe("missing inputs", () => {
  const gc = instrument("GC");
  const book = { bid: 2650, ask: 2650.4 };
  const mcx = { bid: 76400, ask: 76420 };

  it("give undefined, never NaN", () => {
    expect(buySpread({ ask: 2650.4 }, mcx, gc, USDINR, 0.06)).toBeUndefined();
    expect(buySpread(book, { bid: 76400 }, gc, USDINR, 0.06)).toBeUndefined();
    expect(sellSpread({ bid: 2650 }, mcx, gc, USDINR, 0.06)).toBeUndefined();
    expect(sellSpread(book, { ask: 76420 }, gc, USDINR, 0.06)).toBeUndefined();
    expect(buySpread(book, mcx, gc, undefined, 0.06)).toBeUndefined();
    expect(sellSpread(book, mcx, gc, undefined, 0.06)).toBeUndefined();
  });

  it("treat NaN and infinities as missing", () => {
    expect(buySpread({ bid: Number.NaN, ask: 1 }, mcx, gc, USDINR, 0.06)).toBeUndefined();
    expect(sellSpread(book, { bid: Number.POSITIVE_INFINITY }, gc, USDINR, 0.06)).toBeUndefined();
    expect(buySpread(book, mcx, gc, Number.NaN, 0.06)).toBeUndefined();
    expect(buySpread(book, mcx, gc, USDINR, Number.NaN)).toBeUndefined();
    expect(sellSpread(book, mcx, gc, USDINR, Number.NaN)).toBeUndefined();
  });

  it("need only the sides the spread uses", () => {
    expect(buySpread({ bid: 2650 }, { ask: 76420 }, gc, USDINR, 0.06)).toBeDefined();
    expect(sellSpread({ ask: 2650.4 }, { bid: 76400 }, gc, USDINR, 0.06)).toBeDefined();
  });
});

describe("a crossed book (bid above ask)", () => {
  const cl = instrument("CL");
  // A Kite packet whose ask side emptied while an old bid stayed: bid 72155 > ask 72140.
  const crossedMcx = { bid: 72155, ask: 72140 };
  const cme = { bid: 70.1, ask: 70.12 };

  it("is crossed only when both sides are there and bid > ask", () => {
    expect(isCrossed(crossedMcx)).toBe(true);
    expect(isCrossed({ bid: 72140, ask: 72140 })).toBe(false); // last-only: equal sides
    expect(isCrossed({ bid: 72155 })).toBe(false);
    expect(isCrossed({ bid: -5, ask: -10 })).toBe(true);
    expect(isCrossed({ bid: -10, ask: -5 })).toBe(false);
  });

  it("gives no BUY or SELL spread on either side", () => {
    // Uncrossed, CL BUY would be 72140 − 70.10 × 84 = 66251.6 and SELL 72155 − 70.12 × 84 = 66264.92
    // (SELL above BUY: the crossed book invents a free profit). Neither is computed.
    expect(buySpread(cme, crossedMcx, cl, USDINR, 0)).toBeUndefined();
    expect(sellSpread(cme, crossedMcx, cl, USDINR, 0)).toBeUndefined();
    expect(buySpread({ bid: 70.2, ask: 70.1 }, { bid: 5900, ask: 5902 }, cl, USDINR, 0)).toBe(
      undefined,
    );
    expect(sellSpread({ bid: 70.2, ask: 70.1 }, { bid: 5900, ask: 5902 }, cl, USDINR, 0)).toBe(
      undefined,
    );
  });

  it("has no mid, so no spot spread", () => {
    expect(mid({ bid: 2650.4, ask: 2650 })).toBeUndefined();
    expect(spotSpread({ bid: 2650.4, ask: 2650 }, 2640.55)).toBeUndefined();
  });
});

describe("negative prices (NYMEX CL and MCX CRUDEOIL, 20 April 2020)", () => {
  it("are prices like any other", () => {
    const cl = instrument("CL");
    // BUY: −2500 − (−37.63 × 76.5) = −2500 + 2878.695 = 378.695
    const buy = buySpread({ bid: -37.63, ask: -37.5 }, { bid: -2510, ask: -2500 }, cl, 76.5, 0);
    expect(buy?.spread).toBeCloseTo(378.695, 8);
    // SELL: −2510 − (−37.50 × 76.5) = −2510 + 2868.75 = 358.75
    const sell = sellSpread({ bid: -37.63, ask: -37.5 }, { bid: -2510, ask: -2500 }, cl, 76.5, 0);
    expect(sell?.spread).toBeCloseTo(358.75, 8);
    expect(mid({ bid: -37.63, ask: -37.5 })).toBeCloseTo(-37.565, 10);
  });
});

describe("mid, spot spread, index spread", () => {
  it("mid needs both sides", () => {
    expect(mid({ bid: 2650, ask: 2650.4 })).toBeCloseTo(2650.2, 10);
    expect(mid({ bid: 2650 })).toBeUndefined();
    expect(mid({ ask: 2650 })).toBeUndefined();
    expect(mid({ bid: Number.NaN, ask: 1 })).toBeUndefined();
  });

  it("spot spread is CME mid minus spot, in USD", () => {
    // (2650.00 + 2650.40) / 2 = 2650.20 ; − XAUUSD 2640.55 = 9.65
    expect(spotSpread({ bid: 2650, ask: 2650.4 }, 2640.55)).toBeCloseTo(9.65, 8);
    // (31.20 + 31.23) / 2 = 31.215 ; − XAGUSD 31.30 = −0.085
    expect(spotSpread({ bid: 31.2, ask: 31.23 }, 31.3)).toBeCloseTo(-0.085, 8);
    expect(spotSpread({ bid: 2650 }, 2640.55)).toBeUndefined();
    expect(spotSpread({ bid: 2650, ask: 2650.4 }, undefined)).toBeUndefined();
    expect(spotSpread({ bid: 2650, ask: 2650.4 }, Number.NaN)).toBeUndefined();
  });

  it("index spread is GIFT NIFTY minus NIFTY 50", () => {
    // 24150.50 − 24050.25 = 100.25
    expect(indexSpread(24150.5, 24050.25)).toBeCloseTo(100.25, 8);
    expect(indexSpread(24000, 24050.25)).toBeCloseTo(-50.25, 8);
    expect(indexSpread(undefined, 24050.25)).toBeUndefined();
    expect(indexSpread(24150.5, undefined)).toBeUndefined();
    expect(indexSpread(Number.NaN, 1)).toBeUndefined();
  });
});

describe("invariants", () => {
  const price = fc.double({ min: 0.01, max: 1e6, noNaN: true });
  const width = fc.double({ min: 0, max: 1e3, noNaN: true });
  const fx = fc.double({ min: 1, max: 200, noNaN: true });
  const duty = fc.double({ min: 0, max: 0.5, noNaN: true });
  const inst = fc.constantFrom(...INSTRUMENTS);

  it("BUY ≥ SELL whenever both books have ask ≥ bid", () => {
    fc.assert(
      fc.property(price, width, price, width, fx, duty, inst, (cb, cw, mb, mw, rate, d, i) => {
        const cme = { bid: cb, ask: cb + cw };
        const mcx = { bid: mb, ask: mb + mw };
        const buy = buySpread(cme, mcx, i, rate, d);
        const sell = sellSpread(cme, mcx, i, rate, d);
        expect(buy).toBeDefined();
        expect(sell).toBeDefined();
        expect(buy?.spread).toBeGreaterThanOrEqual(sell?.spread ?? Number.POSITIVE_INFINITY);
      }),
    );
  });

  const signed = fc.double({ min: -1e6, max: 1e6, noNaN: true });
  const gap = fc.double({ min: 1e-6, max: 1e3, noNaN: true });

  it("BUY ≥ SELL on any uncrossed books, negative prices included", () => {
    fc.assert(
      fc.property(signed, width, signed, width, fx, duty, inst, (cb, cw, mb, mw, rate, d, i) => {
        const buy = buySpread({ bid: cb, ask: cb + cw }, { bid: mb, ask: mb + mw }, i, rate, d);
        const sell = sellSpread({ bid: cb, ask: cb + cw }, { bid: mb, ask: mb + mw }, i, rate, d);
        expect(buy?.spread).toBeGreaterThanOrEqual(sell?.spread ?? Number.POSITIVE_INFINITY);
      }),
    );
  });

  it("no spread at all once either book is crossed", () => {
    fc.assert(
      fc.property(
        signed,
        gap,
        signed,
        width,
        fx,
        duty,
        inst,
        fc.boolean(),
        (xb, xg, ob, ow, rate, d, i, cmeCrossed) => {
          const crossed = { bid: xb + xg, ask: xb };
          const fine = { bid: ob, ask: ob + ow };
          const [cme, mcx] = cmeCrossed ? [crossed, fine] : [fine, crossed];
          expect(buySpread(cme, mcx, i, rate, d)).toBeUndefined();
          expect(sellSpread(cme, mcx, i, rate, d)).toBeUndefined();
        },
      ),
    );
  });

  const k = fc.double({ min: 0.001, max: 1000, noNaN: true });
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), 1e-300);

  it("parity is linear in the price", () => {
    fc.assert(
      fc.property(price, k, fx, duty, inst, (p, scale, rate, d, i) => {
        expect(close(parity(scale * p, i, rate, d), scale * parity(p, i, rate, d))).toBe(true);
      }),
    );
  });

  it("parity is linear in the exchange rate", () => {
    fc.assert(
      fc.property(price, k, fx, duty, inst, (p, scale, rate, d, i) => {
        expect(close(parity(p, i, scale * rate, d), scale * parity(p, i, rate, d))).toBe(true);
      }),
    );
  });
});
