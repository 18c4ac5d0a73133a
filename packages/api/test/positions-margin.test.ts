import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  configuredMargin,
  defaultCostRates,
  defaultDuties,
  defaultMarginRates,
  roundPaise,
  type SpreadDefinition,
  shippedInstrument,
} from "@spreadwatch/core";
import { openStore, type Store, type StoredPosition } from "@spreadwatch/db";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfigError, loadConfig } from "../src/config/index.ts";
import { type KiteSessions, kiteSessionsIn } from "../src/feeds/providers/kite/session.ts";
import { log } from "../src/log.ts";
import { type MarginPosition, marginPosition } from "../src/positions/margin.ts";
import {
  costMismatch,
  createMarginSource,
  type MarginSourceOptions,
} from "../src/positions/margin-source.ts";
import { builtInDefinitions } from "../src/spreads/built-ins.ts";
import { SpreadRegistry } from "../src/spreads/registry.ts";
import { FakeKite, KITE_KEY, KITE_SECRET } from "./fakes/fake-kite.ts";
import {
  APR,
  calendar,
  FEB,
  KITE_TOKEN,
  REFRESH_WAIT,
  saveKiteLogin,
} from "./fakes/kite-margin-fixture.ts";
import { addTrader, signIn } from "./fakes/signed-in-trader.ts";
import { eventually } from "./fakes/wait.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

const TOKEN = KITE_TOKEN;
const WAIT = REFRESH_WAIT;

let kite: FakeKite;
let dir: string;
let store: Store;
let sessions: KiteSessions;
/** The source's clock: tests move it across the minute the Kite figure is kept. */
let clock: number;

const specOf = (key: string) => shippedInstrument(key);
/** Short attempts, for a Kite that never answers: the figures do not depend on them. */
const NEVER_ANSWERS: Partial<MarginSourceOptions> = {
  call: { attempts: 2, attemptTimeoutMs: 300, deadlineMs: 800, initialDelayMs: 10 },
};

function source(overrides: Partial<MarginSourceOptions> = {}) {
  return createMarginSource({
    rates: defaultMarginRates(),
    costRates: defaultCostRates(),
    specOf,
    kite: { settings: kite.settings(), sessions },
    now: () => clock,
    // Long enough for a loaded machine (at 300 ms an answer that came late was asked for again,
    // and a test counting Kite's requests met two); the test of a Kite that never answers sets
    // short ones (NEVER_ANSWERS) so it ends soon.
    call: { attempts: 2, attemptTimeoutMs: 10_000, deadlineMs: 25_000, initialDelayMs: 10 },
    ...overrides,
  });
}

/** The day's login, as the admin's login stores it for every instance. */
function login(token = TOKEN) {
  return saveKiteLogin(kite, sessions, clock, token);
}

/** SELL 1 × GC: MCX GOLD sold, COMEX GC bought, USDINR converts. */
const parity: MarginPosition = {
  id: 9,
  lots: 1,
  legs: [
    { name: "m", instrument: "GOLD", contract: FEB, lots: 1, price: 78_000, side: "SELL" },
    { name: "c", instrument: "GC", contract: "GCG26", lots: 1, price: 2_650, side: "BUY" },
    // A conversion leg: no lots, no margin, never sent to Kite.
    { name: "fx", instrument: "USDINR", price: 84.5, side: "BUY" },
  ],
};

/** Core's configured margin of the position's legs (or of those of `keys`), unrounded. */
function configuredOf(position: MarginPosition, usdinr: number, keys?: string[]): number {
  const legs = position.legs.filter((leg) => !keys || keys.includes(leg.instrument));
  const perLot = configuredMargin(legs, usdinr, defaultMarginRates(), specOf);
  if (!perLot) throw new Error("no configured margin");
  return perLot.inr * position.lots;
}

beforeEach(async () => {
  kite = await new FakeKite().start();
  dir = mkdtempSync(join(tmpdir(), "positions-margin-"));
  store = await openStore({ kind: "sqlite", file: join(dir, "spreadwatch.db") });
  sessions = kiteSessionsIn(store);
  clock = Date.parse("2026-01-05T05:00:00Z");
});

afterEach(async () => {
  await kite.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("margin from Kite's basket margins", () => {
  it("asks for the MCX legs together and shows final.total, with initial.total beside it", async () => {
    await login();
    const margin = await source().marginFor(calendar, 84.5);
    // The fake margins 10 % of each order's value, and keeps 30 % of the larger side for a spread.
    const buy = 78_000 * 2 * 100 * 0.1;
    const sell = 78_900 * 2 * 100 * 0.1;
    expect(margin).toEqual({
      inr: roundPaise(sell * 0.3),
      source: "kite",
      at: clock,
      initialInr: roundPaise(buy + sell),
    });
    expect(kite.marginRequests).toHaveLength(1);
    const [request] = kite.marginRequests;
    expect(request?.query).toEqual({ consider_positions: "true", mode: "compact" });
    expect(request?.contentType).toBe("application/json");
    expect(request?.authorization).toBe(`token ${KITE_KEY}:${TOKEN}`);
    expect(request?.orders).toEqual([
      {
        exchange: "MCX",
        tradingsymbol: FEB,
        transaction_type: "BUY",
        variety: "regular",
        product: "NRML",
        order_type: "LIMIT",
        quantity: 2,
        price: 78_000,
        trigger_price: 0,
      },
      {
        exchange: "MCX",
        tradingsymbol: APR,
        transaction_type: "SELL",
        variety: "regular",
        product: "NRML",
        order_type: "LIMIT",
        quantity: 2,
        price: 78_900,
        trigger_price: 0,
      },
    ]);
  });

  it("asks Kite at most once a minute per position, concurrent asks included", async () => {
    await login();
    const margins = source();
    const first = await Promise.all([
      margins.marginFor(calendar, 84.5),
      margins.marginFor(calendar, 84.5),
    ]);
    expect(first[0]).toEqual(first[1]);
    clock += 59_999;
    const again = await margins.marginFor(calendar, 84.5);
    expect(again).toEqual(first[0]);
    expect(kite.marginRequests).toHaveLength(1);
    // Another position is asked about on its own.
    await margins.marginFor({ ...calendar, id: 8 }, 84.5);
    expect(kite.marginRequests).toHaveLength(2);
    // After the minute: the last answer at once, with its own time, while Kite is asked again.
    clock += 1;
    const stale = await margins.marginFor(calendar, 84.5);
    expect(stale).toEqual(first[0]);
    await kite.until(() => kite.marginRequests.length === 3, "the refresh");
    const refreshedAt = clock;
    await vi.waitFor(
      async () => expect((await margins.marginFor(calendar, 84.5))?.at).toBe(refreshedAt),
      WAIT,
    );
    expect(kite.marginRequests).toHaveLength(3);
    // An answer more than five minutes old is not served: the ask waits for Kite.
    clock += 5 * 60_000;
    const fresh = await margins.marginFor(calendar, 84.5);
    expect(fresh?.at).toBe(clock);
    expect(kite.marginRequests).toHaveLength(4);
  });

  it("asks again at once when the position's lots change (a partial close)", async () => {
    await login();
    const margins = source();
    await margins.marginFor(calendar, 84.5);
    const one = await margins.marginFor({ ...calendar, lots: 1 }, 84.5);
    expect(kite.marginRequests.map((r) => r.orders[0]?.quantity)).toEqual([2, 1]);
    expect(one?.source).toBe("kite");
  });

  it("spreads a page of many positions under Kite's rate limit", async () => {
    await login();
    // A clock of its own that sleeping moves: the pacing is counted, not timed.
    let paced = 0;
    const pace = {
      now: () => paced,
      sleep: async (ms: number) => {
        paced += ms;
      },
    };
    const positions = Array.from({ length: 5 }, (_, i) => ({ ...calendar, id: 100 + i }));
    const slow = source({ kiteCallsPerSecond: 2, pace });
    const margins = await Promise.all(positions.map((p) => slow.marginFor(p, 84.5)));
    expect(margins.map((m) => m?.source)).toEqual(Array(5).fill("kite"));
    expect(kite.marginRequests).toHaveLength(5);
    // Two a second: the fifth left two seconds after the first.
    expect(paced).toBeGreaterThanOrEqual(2_000);
    expect(paced).toBeLessThan(3_000);
    paced = 0;
    const fast = source({ kiteCallsPerSecond: 8, pace });
    await Promise.all(positions.map((p) => fast.marginFor(p, 84.5)));
    expect(paced).toBe(0);
  });

  it("adds the configured CME margin to Kite's MCX figure; FX legs are not sent", async () => {
    await login();
    const margin = await source().marginFor(parity, 84.5);
    const cme = configuredOf(parity, 84.5, ["GC"]);
    expect(cme).toBeGreaterThan(0);
    const mcx = 78_000 * 100 * 0.1; // one SELL: no spread benefit, final = initial
    expect(margin).toEqual({
      inr: roundPaise(mcx + cme),
      source: "kite",
      at: clock,
      initialInr: roundPaise(mcx + cme),
    });
    expect(kite.marginRequests[0]?.orders.map((o) => o.tradingsymbol)).toEqual([FEB]);
  });

  it("retries a 5xx once and uses the answer", async () => {
    await login();
    kite.failNextMargins.push(502);
    const margin = await source().marginFor(calendar, 84.5);
    expect(margin?.source).toBe("kite");
    expect(kite.marginRequests).toHaveLength(2);
  });
});

describe("the configured figure stands in", () => {
  it("with Kite not set up (no KITE_API_KEY): configured rates, Kite never asked", async () => {
    await login();
    const margin = await source({
      kite: { settings: { ...kite.settings(), apiKey: undefined }, sessions },
    }).marginFor(calendar, 84.5);
    expect(margin).toEqual({
      inr: roundPaise(configuredOf(calendar, 84.5)),
      source: "configured",
      at: clock,
    });
    expect(margin?.inr).toBeGreaterThan(0);
    expect(kite.marginRequests).toHaveLength(0);
  });

  it("with no Kite session today, or an expired one", async () => {
    const margins = source();
    expect((await margins.marginFor(calendar, 84.5))?.source).toBe("configured");
    await sessions.save({
      accessToken: TOKEN,
      userId: "AB1234",
      savedAt: clock - 10,
      expiresAt: clock - 1,
    });
    expect((await margins.marginFor(calendar, 84.5))?.source).toBe("configured");
    expect(kite.marginRequests).toHaveLength(0);
  });

  it("when Kite refuses the token: no retry, the reason logged, and not asked again within the minute", async () => {
    await login();
    kite.validTokens.delete(TOKEN);
    const margins = source();
    const warned = vi.spyOn(log, "warn");
    const margin = await margins.marginFor(calendar, 84.5);
    expect(warned).toHaveBeenCalledWith(
      expect.objectContaining({
        position: calendar.id,
        reason: expect.stringMatching(
          /HTTP 403: TokenException: Incorrect `api_key` or `access_token`/,
        ),
      }),
      "Kite's margin not used; the configured figure stands",
    );
    warned.mockRestore();
    expect(margin).toEqual({
      inr: roundPaise(configuredOf(calendar, 84.5)),
      source: "configured",
      at: clock,
    });
    expect(kite.marginRequests).toHaveLength(1);
    clock += 30_000;
    expect((await margins.marginFor(calendar, 84.5))?.source).toBe("configured");
    expect(kite.marginRequests).toHaveLength(1);
    // Once the minute is over and the token is good again, Kite's figure comes back.
    kite.validTokens.add(TOKEN);
    clock += 30_000;
    await vi.waitFor(
      async () => expect((await margins.marginFor(calendar, 84.5))?.source).toBe("kite"),
      WAIT,
    );
    expect(kite.marginRequests).toHaveLength(2);
  });

  it("when Kite fails every attempt, or never answers", async () => {
    await login();
    kite.failNextMargins.push(500, 500);
    expect((await source().marginFor(calendar, 84.5))?.source).toBe("configured");
    expect(kite.marginRequests).toHaveLength(2);
    kite.failNextMargins.push("hang", "hang");
    expect((await source(NEVER_ANSWERS).marginFor(calendar, 84.5))?.source).toBe("configured");
    expect(kite.marginRequests).toHaveLength(4);
  });

  it("when Kite's answer lacks final.total", async () => {
    await login();
    kite.marginData = { initial: { total: 100 }, final: {} };
    expect((await source().marginFor(calendar, 84.5))?.source).toBe("configured");
    kite.marginData = { initial: { total: 100 }, final: { total: "lots" } };
    expect((await source().marginFor(calendar, 84.5))?.source).toBe("configured");
  });

  it("when an MCX leg has no exchange contract or no price, and for a position without MCX legs", async () => {
    await login();
    const margins = source();
    const noContract = {
      ...calendar,
      legs: calendar.legs.map((leg) => ({ ...leg, contract: undefined })),
    };
    expect((await margins.marginFor(noContract, 84.5))?.source).toBe("configured");
    const noPrice = {
      ...calendar,
      id: 3,
      legs: calendar.legs.map((leg) => ({ ...leg, price: Number.NaN })),
    };
    // No price (or a zero one): no figure, and Kite is not asked; return on margin is not shown.
    expect(await margins.marginFor(noPrice, 84.5)).toBeUndefined();
    const zero = { ...noPrice, legs: calendar.legs.map((leg) => ({ ...leg, price: 0 })) };
    expect(await margins.marginFor(zero, 84.5)).toBeUndefined();
    // A US leg needs USDINR.
    expect(await margins.marginFor(parity, Number.NaN)).toBeUndefined();
    const cmeOnly = {
      ...parity,
      id: 4,
      legs: parity.legs.filter((leg) => leg.instrument !== "GOLD"),
    };
    expect(await margins.marginFor(cmeOnly, 84.5)).toEqual({
      inr: roundPaise(configuredOf(cmeOnly, 84.5)),
      source: "configured",
      at: clock,
    });
    expect(kite.marginRequests).toHaveLength(0);
  });
});

describe("costs checked against Kite's virtual contract note", () => {
  it("asks for one lot's entry and exit of every MCX leg and compares per lot", async () => {
    await login();
    const costs = await source().brokerCosts(calendar);
    expect(kite.chargeRequests).toHaveLength(1);
    const [request] = kite.chargeRequests;
    expect(request?.contentType).toBe("application/json");
    expect(request?.authorization).toBe(`token ${KITE_KEY}:${TOKEN}`);
    const order = (tradingsymbol: string, side: string, price: number, id: number) => ({
      order_id: String(id),
      exchange: "MCX",
      tradingsymbol,
      transaction_type: side,
      variety: "regular",
      product: "NRML",
      order_type: "LIMIT",
      quantity: 1,
      average_price: price,
    });
    expect(request?.orders).toEqual([
      order(FEB, "BUY", 78_000, 1),
      order(FEB, "SELL", 78_000, 2),
      order(APR, "SELL", 78_900, 3),
      order(APR, "BUY", 78_900, 4),
    ]);
    // The fake charges as a discount broker does, at the rates Spreadwatch defaults to.
    expect(costs?.perLotInr).toBeGreaterThan(2_000);
    expect(costs?.inr).toBe(roundPaise((costs?.perLotInr ?? 0) * 2));
    expect(Math.abs((costs?.oursPerLotInr ?? 0) - (costs?.perLotInr ?? 0))).toBeLessThanOrEqual(
      0.02,
    );
    expect(costs?.costMismatch).toBe(false);
    expect(costs?.at).toBe(clock);
  });

  it("flags a difference above ₹1 per lot, and not one below", async () => {
    await login();
    const margins = source();
    // ₹0.30 more brokerage per order: 2 orders × 0.30 × 1.18 GST = ₹0.71 a lot per leg → 1.42 for two legs.
    kite.chargeRates.brokeragePerOrder = 20.3;
    const single = { ...parity, legs: parity.legs.slice(0, 1) };
    expect((await margins.brokerCosts(single))?.costMismatch).toBe(false);
    expect((await margins.brokerCosts(calendar))?.costMismatch).toBe(true);
    // A broker charging ₹22 an order is flagged on a one-leg position too.
    kite.chargeRates.brokeragePerOrder = 22;
    clock += 60_000;
    const flagged = await vi.waitFor(async () => {
      const costs = await margins.brokerCosts(single);
      expect(costs?.costMismatch).toBe(true);
      return costs;
    }, WAIT);
    expect((flagged?.perLotInr ?? 0) - (flagged?.oursPerLotInr ?? 0)).toBeCloseTo(2 * 2 * 1.18, 1);
  });

  it("is cached per position for a minute, and absent without Kite or when Kite fails", async () => {
    const margins = source();
    expect(await margins.brokerCosts(calendar)).toBeUndefined();
    await login();
    kite.failNextCharges.push(400);
    expect(await margins.brokerCosts(calendar)).toBeUndefined();
    expect(kite.chargeRequests).toHaveLength(1);
    expect(await margins.brokerCosts(calendar)).toBeUndefined();
    expect(kite.chargeRequests).toHaveLength(1);
    clock += 60_000;
    const costs = await vi.waitFor(async () => {
      const answer = await margins.brokerCosts(calendar);
      expect(answer?.costMismatch).toBe(false);
      return answer;
    }, WAIT);
    // Closing a lot scales the figure without asking Kite again: it is reckoned per lot.
    const oneLot = await margins.brokerCosts({ ...calendar, lots: 1 });
    expect(oneLot?.inr).toBe(costs?.perLotInr);
    expect(kite.chargeRequests).toHaveLength(2);
  });

  it("compares at the prices Kite was asked at, so a cached answer is not flagged when prices move", async () => {
    await login();
    const margins = source();
    const first = await margins.brokerCosts(calendar);
    clock += 30_000;
    const moved = {
      ...calendar,
      legs: calendar.legs.map((leg) => ({ ...leg, price: leg.price * 1.02 })),
    };
    const cached = await margins.brokerCosts(moved);
    expect(kite.chargeRequests).toHaveLength(1);
    expect(cached).toEqual(first);
    expect(cached?.costMismatch).toBe(false);
  });

  it("is absent when Kite's contract note does not list every order or lacks a total", async () => {
    await login();
    const cases: unknown[] = [
      [{ charges: { total: 10 } }],
      Array(4).fill({ charges: {} }),
      Array(4).fill({ charges: { total: -1 } }),
      { charges: { total: 10 } },
    ];
    for (const [i, data] of cases.entries()) {
      kite.chargesData = data;
      expect(
        await source().brokerCosts({ ...calendar, id: 50 + i }),
        JSON.stringify(data),
      ).toBeUndefined();
    }
    expect(kite.chargeRequests).toHaveLength(cases.length);
  });

  it("costMismatch is strictly above ₹1 a lot", () => {
    expect(costMismatch(100, 101)).toBe(false);
    expect(costMismatch(101.01, 100)).toBe(true);
    expect(costMismatch(100, 98.99)).toBe(true);
  });
});

describe("MARGIN_* settings", () => {
  const base = { DATA_DIR: "/nonexistent" };

  it("override one rate each over core's defaults, and the configured margin follows", async () => {
    const rates = loadConfig({
      ...base,
      MARGIN_MCX_GOLD_SHARE: "0.08",
      MARGIN_MCX_SHARE: "0.2",
      MARGIN_US_GC_USD: "15000",
    }).marginRates;
    const defaults = defaultMarginRates();
    expect(rates.mcxShare).toEqual({ ...defaults.mcxShare, GOLD: 0.08, default: 0.2 });
    expect(rates.usInitialUsd).toEqual({ ...defaults.usInitialUsd, GC: 15_000 });
    expect(loadConfig(base).marginRates).toEqual(defaults);
    // The source reckons with them: GOLD at 8 %, GOLD@next (root GOLD) too; GC at $15,000.
    const margin = await source({ rates, kite: undefined }).marginFor(parity, 84.5);
    expect(margin).toEqual({
      inr: roundPaise(78_000 * 100 * 0.08 + 15_000 * 84.5),
      source: "configured",
      at: clock,
    });
    const calendarMargin = await source({ rates, kite: undefined }).marginFor(calendar, 84.5);
    expect(calendarMargin?.inr).toBe(roundPaise((78_000 + 78_900) * 100 * 2 * 0.08));
  });

  it("refuse a value that is not a share or an amount, naming the variable", () => {
    for (const [name, value] of [
      ["MARGIN_MCX_GOLD_SHARE", "-0.1"],
      ["MARGIN_MCX_GOLD_SHARE", "10"],
      ["MARGIN_MCX_SHARE", "ten percent"],
      ["MARGIN_US_GC_USD", "-5"],
      ["MARGIN_US_CL_USD", "lots"],
    ] as const) {
      expect(() => loadConfig({ ...base, [name]: value }), `${name}=${value}`).toThrow(
        new RegExp(`Invalid ${name}: must be`),
      );
    }
  });

  it("refuse a MARGIN_ name that sets nothing (a typo), with every other problem at once", () => {
    let error: unknown;
    try {
      loadConfig({ ...base, MARGIN_MCX_GLOD_SHARE: "0.1", MARGIN_US_GC_USD: "-1" });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^Invalid MARGIN_US_GC_USD: must be an amount ≥ 0/),
      expect.stringMatching(/^Invalid MARGIN_MCX_GLOD_SHARE: sets nothing/),
    ]);
  });
});

describe("a stored position, as the positions service hands it over", () => {
  /** A user's GOLD calendar, one lot a leg. */
  const stored: SpreadDefinition[] = [
    {
      id: 1,
      symbol: "SP1",
      name: "Gold calendar",
      legs: [
        { name: "g", instrument: "GOLD", lots: 1 },
        { name: "gn", instrument: "GOLD@next", lots: 1 },
      ],
      formula: "g - gn",
      shared: false,
      builtin: false,
      ownerId: 5,
      createdAt: 0,
      updatedAt: 0,
    },
  ];
  let registry: SpreadRegistry;

  beforeEach(async () => {
    registry = new SpreadRegistry({
      builtIns: builtInDefinitions(defaultDuties()),
      load: async () => stored,
    });
    await registry.reload();
  });

  function held(
    id: number,
    spread: string,
    side: "BUY" | "SELL",
    lots: number,
    legs: StoredPosition["legs"],
  ): StoredPosition {
    return {
      id,
      ownerId: 5,
      spread,
      side,
      lots,
      entry: 0,
      units: 100,
      legs,
      note: "",
      targetInr: null,
      stopInr: null,
      openedAt: clock,
      campaignId: id,
      rolledFromId: null,
      executionId: null,
      slippageTicks: null,
      status: "open",
      closedAt: null,
    };
  }

  function asked(position: StoredPosition, prices: Record<string, number>) {
    const spread = registry.bySymbolName(position.spread);
    if (!spread) throw new Error(`${position.spread} is not registered`);
    return marginPosition(position, spread, prices, {});
  }

  it("a parity: Kite prices the MCX lot, the US hedge (3 MGC a GOLD lot) is at the configured rate", async () => {
    await login();
    const margins = source();
    const position = held(21, "GC", "SELL", 2, {
      m: { instrument: "GOLD", price: 78_000, contract: FEB },
      c: { instrument: "GC", price: 2_650, contract: "GCG26" },
      fx: { instrument: "USDINR", price: 84.5 },
    });
    const legs = asked(position, { m: 78_000, c: 2_650, fx: 84.5 });
    const margin = await margins.marginFor(legs, 84.5);
    const hedge = 3 * (defaultMarginRates().usInitialUsd.MGC ?? Number.NaN) * 84.5 * 2;
    expect(margin).toEqual({
      inr: roundPaise(78_000 * 100 * 2 * 0.1 + hedge),
      source: "kite",
      at: clock,
      initialInr: roundPaise(78_000 * 100 * 2 * 0.1 + hedge),
    });
    expect(kite.marginRequests[0]?.orders).toEqual([
      expect.objectContaining({ tradingsymbol: FEB, transaction_type: "SELL", quantity: 2 }),
    ]);
    const costs = await margins.brokerCosts(legs);
    expect(
      kite.chargeRequests[0]?.orders.map((o) => [o.tradingsymbol, o.transaction_type]),
    ).toEqual([
      [FEB, "SELL"],
      [FEB, "BUY"],
    ]);
    expect(costs?.costMismatch).toBe(false);
  });

  it("a calendar of one's own, sold: the near month sold and the next bought, in one basket", async () => {
    await login();
    const position = held(22, "SP1", "SELL", 3, {
      g: { instrument: "GOLD", price: 78_000, contract: FEB },
      gn: { instrument: "GOLD@next", price: 78_900, contract: APR },
    });
    const margin = await source().marginFor(asked(position, { g: 78_000, gn: 78_900 }), 84.5);
    expect(margin?.source).toBe("kite");
    expect(
      kite.marginRequests[0]?.orders.map((o) => [o.tradingsymbol, o.transaction_type, o.quantity]),
    ).toEqual([
      [FEB, "SELL", 3],
      [APR, "BUY", 3],
    ]);
  });
});

describe("GET /api/positions, with the fake Kite on loopback", () => {
  let server: TestServer | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("shows the configured figure until an admin's login, then Kite's margin and contract note with their source", async () => {
    const feed = manualFeed();
    server = await startTestServer({
      feed,
      env: {
        KITE_API_KEY: KITE_KEY,
        KITE_API_SECRET: KITE_SECRET,
        KITE_API_ROOT: kite.url,
        KITE_WS_ROOT: kite.wsUrl,
        MARGIN_MCX_GOLD_SHARE: "0.05",
        // ₹5 an order above the fake broker's ₹20: ours is out of date, and flagged.
        COST_MCX_BROKERAGE_INR: "25",
      },
    });
    const admin = await signIn(server, ADMIN.username, ADMIN.password);
    const trader = await addTrader(server, admin, "trader");
    const ts = Date.now();
    for (const quote of [
      { source: "fx", key: "USDINR", price: 84, ts },
      { source: "cme", key: "GC", bid: 2650, ask: 2651, ts, contract: "GCG26" },
      {
        source: "mcx",
        key: "GOLD",
        bid: 78_000,
        ask: 78_010,
        ts,
        contract: FEB,
        expiry: "2099-02-05",
      },
    ] as const)
      feed.push({ ...quote });
    await eventually(
      async () => (await fetch(`${server?.url}/api/calculations`)).json(),
      (body) => (body as Record<string, unknown>).GC_BUY !== undefined,
      "GC_BUY",
    );
    const opened = await trader.post("/api/positions", { spread: "GC", side: "BUY", lots: 2 });
    expect(opened.status).toBe(201);
    // Without a Kite session: MARGIN_MCX_GOLD_SHARE and the 3 MGC hedge, no broker figure.
    const hedge = 3 * (defaultMarginRates().usInitialUsd.MGC ?? Number.NaN) * 84;
    expect(opened.body.margin).toMatchObject({
      inr: roundPaise(2 * (78_000 * 100 * 0.05 + hedge)),
      source: "configured",
    });
    expect(opened.body.brokerCosts).toBeNull();
    expect(opened.body.costMismatch).toBe(false);
    expect(kite.marginRequests).toHaveLength(0);

    // The admin's login of the day, as /api/kite/callback stores it for every instance.
    await kiteSessionsIn(server.services.store).save({
      accessToken: TOKEN,
      userId: "AB1234",
      savedAt: Date.now(),
      expiresAt: Date.now() + 3_600_000,
    });
    kite.validTokens.add(TOKEN);
    const [view] = (await trader.get("/api/positions")).body.positions;
    // The position is sold at its exit: GOLD at its bid, the fake's 10 % a lot, no spread benefit.
    const kiteMcx = 78_000 * 100 * 2 * 0.1;
    expect(view.margin).toMatchObject({
      inr: roundPaise(kiteMcx + 2 * hedge),
      initialInr: roundPaise(kiteMcx + 2 * hedge),
      source: "kite",
    });
    expect(view.margin.at).toBeGreaterThanOrEqual(ts);
    expect(kite.marginRequests.at(-1)?.orders).toEqual([
      expect.objectContaining({
        exchange: "MCX",
        tradingsymbol: FEB,
        transaction_type: "BUY",
        product: "NRML",
        quantity: 2,
        price: 78_000,
      }),
    ]);
    expect(view.brokerCosts).toMatchObject({ costMismatch: true });
    expect(view.brokerCosts.inr).toBe(roundPaise(view.brokerCosts.perLotInr * 2));
    expect(view.brokerCosts.oursPerLotInr - view.brokerCosts.perLotInr).toBeCloseTo(
      2 * 5 * 1.18,
      1,
    );
    expect(view.costMismatch).toBe(true);
    // Within the minute, another look does not ask Kite again.
    const asked = kite.marginRequests.length + kite.chargeRequests.length;
    expect((await trader.get("/api/positions")).body.positions[0].margin.source).toBe("kite");
    expect(kite.marginRequests.length + kite.chargeRequests.length).toBe(asked);
  });
});
