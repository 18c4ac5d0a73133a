import {
  type CostRates,
  configuredMargin,
  definitionCosts,
  exitSideOf,
  type MarginRates,
  roundPaise,
  type SpecOf,
  totalCosts,
} from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";
import type { KiteSettings } from "../config/index.ts";
import { type Auth, kiteCredentials } from "../feeds/providers/kite/credentials.ts";
import { type KiteSessions, kiteSessionsIn } from "../feeds/providers/kite/session.ts";
import { log, warnEvery } from "../log.ts";
import type { OutboundOptions } from "../outbound/policy.ts";
import {
  type BasketMargin,
  KITE_MARGIN_CALL,
  type KiteOrder,
  kiteBasketMargin,
  kiteOrderCharges,
} from "./kite-margins.ts";
import type { MarginPosition, PositionMarginLeg, PositionMarginSource } from "./margin.ts";
import {
  type AnswerStore,
  memoryAnswerStore,
  type Pace,
  SharedAnswers,
} from "./shared-kite-answers.ts";
import type { BrokerCosts, Margin } from "./view.ts";

/**
 * Where a position's margin (and the broker's own cost figure) comes from: the configured rates
 * always; Kite's margin calculator and contract note for the MCX legs when Kite is connected.
 * The positions service reads a position as `marginPosition` (margin.ts) makes it: each leg with
 * the lots of ONE spread lot, the side the entry trades it, and the mark's price. `marginFor` is
 * undefined when no figure can be had (a traded leg without a price or a catalogue entry, a US
 * leg without USDINR, or legs that block nothing): return on margin is then not shown.
 */
export type MarginSource = PositionMarginSource;

/** Kite's and Spreadwatch's per-lot costs differ by more than this, ₹: flagged. */
export const COST_MISMATCH_INR_PER_LOT = 1;

export function costMismatch(oursPerLotInr: number, brokerPerLotInr: number): boolean {
  return Math.abs(oursPerLotInr - brokerPerLotInr) > COST_MISMATCH_INR_PER_LOT;
}

/**
 * Kite is asked about a position at most this often, by all instances together (docs/operations.md
 * "Margin of a position").
 */
export const KITE_MARGIN_CACHE_MS = 60_000;

/** Under Kite's 10 a second, leaving room for the instruments downloads and logins. */
export const KITE_CALLS_PER_SECOND = 8;

export interface MarginSourceOptions {
  rates: MarginRates;
  costRates: CostRates;
  specOf: SpecOf;
  /** Absent: configured rates only. */
  kite?: { settings: KiteSettings; sessions: Pick<KiteSessions, "read"> };
  now?: () => number;
  cacheMs?: number;
  call?: OutboundOptions;
  /** Kite calls leaving this instance per second at most (both endpoints together). */
  kiteCallsPerSecond?: number;
  pace?: Pace;
  /** Where instances share Kite's answers (the store's key values); absent: in memory. */
  answers?: AnswerStore;
}

const realPace: Pace = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Kite allows 10 requests a second to endpoints other than quotes and orders (Kite Connect's
 * documented rate limits); a page of many positions asking at once is spread under that.
 */
class RateGate {
  private readonly starts: number[] = [];

  constructor(
    private readonly perSecond: number,
    private readonly pace: Pace,
  ) {}

  async acquire(): Promise<void> {
    for (;;) {
      const now = this.pace.now();
      while (this.starts.length > 0 && now - (this.starts[0] as number) >= 1_000)
        this.starts.shift();
      if (this.starts.length < this.perSecond) {
        this.starts.push(now);
        return;
      }
      const wait = 1_000 - (now - (this.starts[0] as number));
      await this.pace.sleep(Math.max(1, wait));
    }
  }
}

export function createMarginSource(options: MarginSourceOptions): MarginSource {
  const now = options.now ?? Date.now;
  const ttl = options.cacheMs ?? KITE_MARGIN_CACHE_MS;
  const call = options.call ?? KITE_MARGIN_CALL;
  const maxStale = 5 * ttl;
  const gate = new RateGate(
    options.kiteCallsPerSecond ?? KITE_CALLS_PER_SECOND,
    options.pace ?? realPace,
  );
  const shared = (name: string) => ({
    name,
    store: options.answers ?? memoryAnswerStore(),
    ttlMs: ttl,
    maxStaleMs: maxStale,
    now,
    waitMs: call.deadlineMs ?? call.attempts * call.attemptTimeoutMs,
    pace: options.pace ?? realPace,
  });
  const margins = new SharedAnswers<BasketMargin>(shared("margins"));
  /** Each order's charges, and the leg prices they were asked at. */
  const charges = new SharedAnswers<{ totals: number[]; prices: Record<string, number> }>(
    shared("charges"),
  );

  /** A leg Kite can price: an MCX leg that trades lots. */
  const isMcx = (leg: PositionMarginLeg) =>
    options.specOf(leg.instrument)?.exchange === "MCX" && (leg.lots ?? 0) > 0;

  /** The configured margin of `legs` for all the position's lots, unrounded; undefined: none. */
  const configured = (legs: readonly PositionMarginLeg[], lots: number, usdinr: number) => {
    const perLot = configuredMargin(legs, usdinr, options.rates, options.specOf);
    return perLot && perLot.inr * lots;
  };

  /** Today's Kite credentials, or why Kite is not asked (undefined: Kite is not set up at all). */
  async function kiteAuth(): Promise<Auth | { missing: string } | undefined> {
    const kite = options.kite;
    if (!kite?.settings.apiKey) return undefined;
    try {
      return kiteCredentials(kite.settings, await kite.sessions.read(now()), undefined);
    } catch (error) {
      return { missing: `the stored Kite session could not be read (${(error as Error).message})` };
    }
  }

  /** Why Kite's figure is not shown, once per 10 minutes for the same reason. */
  function fallBack(position: MarginPosition, what: "margin" | "contract note", reason: string) {
    warnEvery(
      `positions.kite.${what}.${reason}`,
      10 * 60_000,
      { position: position.id, reason },
      what === "margin"
        ? "Kite's margin not used; the configured figure stands"
        : "Kite's contract note not used; no broker cost figure is shown",
    );
  }

  /** The MCX legs Kite can price, or why it cannot. */
  function mcxOrders(
    position: MarginPosition,
    lotsOf: (leg: PositionMarginLeg) => number,
  ): Array<KiteOrder & { leg: PositionMarginLeg }> | { missing: string } | undefined {
    const legs = position.legs.filter(isMcx);
    if (legs.length === 0) return undefined;
    const orders: Array<KiteOrder & { leg: PositionMarginLeg }> = [];
    for (const leg of legs) {
      if (!leg.contract)
        return { missing: `${leg.instrument} has no exchange contract from the feed` };
      if (!Number.isFinite(leg.price) || leg.price <= 0)
        return { missing: `${leg.instrument} has no price` };
      orders.push({
        tradingsymbol: leg.contract,
        side: leg.side,
        lots: lotsOf(leg),
        price: leg.price,
        leg,
      });
    }
    return orders;
  }

  /** What the cache is keyed by: the position and its orders, not the prices (they move every tick). */
  const keyOf = (position: MarginPosition, orders: readonly KiteOrder[]) =>
    `${position.id}|${orders.map((o) => `${o.tradingsymbol}:${o.side}:${o.lots}`).join(",")}`;

  return {
    async marginFor(position, usdinr): Promise<Margin | undefined> {
      const at = now();
      const all = configured(position.legs, position.lots, usdinr);
      // A leg without a price (or a US leg without USDINR): Kite's figure could not be completed
      // either. Nothing blocked (no leg trades lots): no margin to show a return on.
      if (all === undefined || all <= 0) return undefined;
      const fallback: Margin = { inr: roundPaise(all), source: "configured", at };
      const orders = mcxOrders(position, (leg) => (leg.lots ?? 0) * position.lots);
      if (orders === undefined) return fallback;
      const auth = await kiteAuth();
      if (auth === undefined) return fallback;
      if ("missing" in auth) {
        fallBack(position, "margin", auth.missing);
        return fallback;
      }
      if ("missing" in orders) {
        fallBack(position, "margin", orders.missing);
        return fallback;
      }
      const apiRoot = options.kite?.settings.apiRoot ?? "";
      const outcome = await margins.get(keyOf(position, orders), async () => {
        await gate.acquire();
        return kiteBasketMargin(apiRoot, auth, orders, call);
      });
      if ("error" in outcome) {
        fallBack(position, "margin", outcome.error);
        return fallback;
      }
      // CME legs have no Kite figure: their configured initial margin is added to Kite's.
      const others = configured(
        position.legs.filter((leg) => !isMcx(leg)),
        position.lots,
        usdinr,
      );
      if (others === undefined) return fallback;
      return {
        inr: roundPaise(outcome.ok.finalInr + others),
        source: "kite",
        at: outcome.at,
        initialInr: roundPaise(outcome.ok.initialInr + others),
      };
    },

    async brokerCosts(position): Promise<Required<BrokerCosts> | undefined> {
      // One lot of the position, entry and exit of every MCX leg at its price: what one lot's
      // round trip costs, as Spreadwatch's per-lot costs reckon it (brokerage per order, so N
      // lots in one order would not compare with N times one lot).
      const orders = mcxOrders(position, (leg) => leg.lots ?? 0);
      if (orders === undefined) return undefined;
      const auth = await kiteAuth();
      if (auth === undefined) return undefined;
      if ("missing" in auth) {
        fallBack(position, "contract note", auth.missing);
        return undefined;
      }
      if ("missing" in orders) {
        fallBack(position, "contract note", orders.missing);
        return undefined;
      }
      const apiRoot = options.kite?.settings.apiRoot ?? "";
      const asked = orders.flatMap((o): KiteOrder[] => [o, { ...o, side: exitSideOf(o.side) }]);
      const prices = Object.fromEntries(orders.map((o) => [o.leg.name, o.price]));
      const outcome = await charges.get(keyOf(position, orders), async () => {
        await gate.acquire();
        return { totals: await kiteOrderCharges(apiRoot, auth, asked, call), prices };
      });
      if ("error" in outcome) {
        fallBack(position, "contract note", outcome.error);
        return undefined;
      }
      const perLot = outcome.ok.totals.reduce((sum, total) => sum + total, 0);
      // Ours as the position's costs reckon them (core's definitionCosts, MCX legs only), at the
      // prices Kite was asked at: a cached answer may be up to a minute old, and charges follow
      // turnover, so a minute's move alone could look like a rupee of difference.
      const mcx = definitionCosts(
        orders.map((o) => o.leg),
        outcome.ok.prices,
        Number.NaN,
        options.costRates,
        options.specOf,
      );
      if (!mcx) return undefined;
      const ours = totalCosts(mcx);
      const perLotInr = roundPaise(perLot);
      const oursPerLotInr = roundPaise(ours);
      log.debug({ position: position.id, perLotInr, oursPerLotInr }, "Kite contract note");
      return {
        inr: roundPaise(perLotInr * position.lots),
        at: outcome.at,
        perLotInr,
        oursPerLotInr,
        costMismatch: costMismatch(oursPerLotInr, perLotInr),
      };
    },
  };
}

/**
 * The server's margin source (composition): the configured MARGIN_* and COST_* rates, the
 * instruments in use, and Kite through the day's session every instance reads from the store,
 * where they also share Kite's answers.
 */
export function serverMarginSource(
  config: { marginRates: MarginRates; costRates: CostRates; kite: KiteSettings },
  store: Pick<Store, "keyValues">,
  specOf: SpecOf,
): MarginSource {
  return createMarginSource({
    rates: config.marginRates,
    costRates: config.costRates,
    specOf,
    kite: { settings: config.kite, sessions: kiteSessionsIn(store) },
    answers: store.keyValues,
  });
}

export type { Pace };
