import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config/index.ts";
import { FIXTURES, startTestServer, type TestServer } from "./server.ts";

// fixtures/hand-worked.csv, default rates (core's defaultCostRates), USDINR 84, worked by hand.
// GC_BUY: spread 65.950510587292, MCX ask 57320, GOLD lot = 1 kg = 100 units of 10 g.
//   gross = 6595.0510587292 → 6595.05
//   hedge: GC is 311.034768 units (0.32 of a lot → 0), MGC 31.1034768 units: 100 / 31.10 =
//   3.215 → 3 MGC, unhedged 100 − 93.3104304 = 6.6895696 → 6.6896
//   one MCX side 57320 × 100 = 5,732,000; both sides 11,464,000
//   brokerage 2 × 20 = 40; exchange 11,464,000 × 210 / 1e7 = 240.744; SEBI × 10 / 1e7 = 11.464
//   CTT 5,732,000 × 0.0001 = 573.2; stamp 5,732,000 × 0.00002 = 114.64
//   GST (40 + 240.744 + 11.464) × 0.18 = 52.59744; CME 2 × 3 × $1.02 = $6.12 × 84 = 514.08
//   costs 1546.72544 → 1546.73; net 6595.05 − 1546.73 = 5048.32
// CL_SELL: spread −6.68, MCX bid 5875, CRUDEOIL lot 100 bbl, hedge 1 MCL (100 bbl) exactly.
//   gross −668.00; side 587,500; both 1,175,000; brokerage 40; exchange 24.675; SEBI 1.175;
//   CTT 58.75; stamp 11.75; GST 65.85 × 0.18 = 11.853; CME 2 × $0.77 × 84 = 129.36
//   costs 277.563 → 277.56; net −945.56
const HAND = {
  GC_BUY: {
    contract: "GOLD",
    units: 100,
    grossInr: 6595.05,
    costsInr: 1546.73,
    netInr: 5048.32,
    hedge: { contract: "MGC", contracts: 3, unhedgedUnits: 6.6896 },
  },
  CL_SELL: {
    contract: "CRUDEOIL",
    units: 100,
    grossInr: -668,
    costsInr: 277.56,
    netInr: -945.56,
    hedge: { contract: "MCL", contracts: 1, unhedgedUnits: 0 },
  },
};

const replay = {
  FEED: "replay",
  REPLAY_FILE: join(FIXTURES, "hand-worked.csv"),
  REPLAY_SPEED: "0",
};

async function calculations(server: TestServer) {
  // biome-ignore lint/suspicious/noExplicitAny: the test reads raw JSON
  return (await (await fetch(`${server.url}/api/calculations`)).json()) as any;
}

describe("perLot in /api/calculations", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: replay });
  });
  afterAll(() => server.stop());

  it("is the hand-worked standard lot, hedge and round-trip costs of each spread", async () => {
    const body = await calculations(server);
    for (const [symbol, want] of Object.entries(HAND)) {
      const { breakdown, ...perLot } = body[symbol].perLot;
      expect(perLot).toEqual(want);
      expect(Object.keys(breakdown).sort()).toEqual([
        "brokerage",
        "cme",
        "cmeUsd",
        "ctt",
        "exchange",
        "gst",
        "mcxTurnover",
        "sebi",
        "stampDuty",
      ]);
    }
    expect(body.GC_BUY.perLot.breakdown).toEqual({
      mcxTurnover: 11_464_000,
      brokerage: 40,
      exchange: 240.74,
      sebi: 11.46,
      ctt: 573.2,
      stampDuty: 114.64,
      gst: 52.6,
      cme: 514.08,
      cmeUsd: 6.12,
    });
    for (const symbol of [
      "GC_SELL",
      "SI_BUY",
      "SI_SELL",
      "HG_BUY",
      "HG_SELL",
      "NG_BUY",
      "NG_SELL",
      "CL_BUY",
    ])
      expect(body[symbol].perLot.netInr).toBeCloseTo(
        body[symbol].perLot.grossInr - body[symbol].perLot.costsInr,
        2,
      );
  });
});

describe("cost configuration", () => {
  it("takes each rate from COST_* (free brokerage and MGC: GC_BUY costs 985.45, net 5609.60)", async () => {
    // 240.744 + 11.464 + 573.2 + 114.64 + GST (240.744 + 11.464) × 0.18 = 45.39744 → 985.44544
    const server = await startTestServer({
      env: { ...replay, COST_MCX_BROKERAGE_INR: "0", COST_CME_MGC_USD: "0" },
    });
    try {
      const { perLot } = (await calculations(server)).GC_BUY;
      expect(perLot.costsInr).toBe(985.45);
      expect(perLot.netInr).toBe(5609.6);
      expect(perLot.breakdown.cme).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it("takes NSE's futures and currency rates from COST_STT_RATE, COST_NFO_* and COST_CDS_*", () => {
    const { costRates } = loadConfig({
      COST_STT_RATE: "0.000125",
      COST_NFO_EXCHANGE_PER_CRORE: "190",
      COST_CDS_EXCHANGE_PER_CRORE: "40",
      COST_CDS_STAMP_RATE: "0.000002",
    });
    expect(costRates).toMatchObject({
      sttFuturesSellRate: 0.000125,
      nfoExchangePerCrore: 190,
      cdsExchangePerCrore: 40,
      cdsStampDutyBuyRate: 0.000002,
    });
    expect(() => loadConfig({ COST_STT_RATE: "2" })).toThrow("Invalid COST_STT_RATE");
  });

  it("refuses a bad rate with one sentence naming it", () => {
    expect(() => loadConfig({ COST_GST_RATE: "18" })).toThrow(ConfigError);
    expect(() => loadConfig({ COST_GST_RATE: "18" })).toThrow(
      'Invalid COST_GST_RATE: must be a fraction from 0 to 1 (0.0001 = 0.01 %) (got "18")',
    );
    expect(() => loadConfig({ COST_CME_GC_USD: "-1" })).toThrow(
      'Invalid COST_CME_GC_USD: must be an amount ≥ 0 in USD per contract per side (got "-1")',
    );
  });
});
