// An order ticket for a spread (docs/user-guide.md "Live orders"): both legs on Kite, the working leg (the
// thinner book) at the target, the hedge at its executable side plus pay-up ticks. Everything a
// ticket is refused for is found here, before anything is sent.
import { randomBytes } from "node:crypto";
import {
  type CostRates,
  definitionCosts,
  type GuardState,
  type GuardTicket,
  guardStep,
  initialGuardState,
  kiteOrderExchange,
  kiteQuantity,
  type OrderSide,
  onTick,
  roundPaise,
  type SpecOf,
  thinnerLeg,
  totalCosts,
} from "@spreadwatch/core";
import type { MarketHub } from "../market/hub.ts";
import { PositionError } from "../positions/position-error.ts";
import type { PositionsService } from "../positions/service.ts";
import { type OrderLeg, type OrderRequest, placeRequest } from "./kite-orders.ts";

export interface TicketInput {
  spread: string;
  side: OrderSide;
  lots: number;
  payUpTicks: number;
  hedgeTimeoutMs: number;
  adverseTicks: number;
  onHedgeFail: "flatten" | "alert";
  positionId?: number | undefined;
}

export interface CampaignLeg extends OrderLeg {
  instrument: string;
  tick: number;
  /** Kite's quantity for one lot: 1 on MCX and CDS, the lot's units on NFO (core kite-order.ts). */
  quantityPerLot?: number;
}

/** A campaign as stored (store.executions' document). */
export interface CampaignDoc {
  ticket: TicketInput;
  /** The spread's executable value the working leg's limit aims at. */
  target: number;
  guard: GuardTicket;
  legs: Record<string, CampaignLeg>;
  state: GuardState;
  events: Array<{ at: number; text: string }>;
}

export class ExecutionRefusal extends PositionError {
  constructor(message: string) {
    super("conflict", message);
  }
}

/** A campaign id: short enough that id + role + index stays within Kite's 20-character tag. */
export function newCampaignId(): string {
  return `sw${randomBytes(6).toString("hex")}`;
}

/**
 * The campaign a ticket opens, or an ExecutionRefusal naming why not: a leg Kite does not trade
 * or whose contract is unknown, a leg without a bid and an ask on the hub, stale or crossed legs,
 * or a spread of other than two legs. Quantities are Kite's: lots on MCX and CDS, units on NFO.
 */
export function buildCampaign(
  services: { hub: MarketHub; positions: PositionsService },
  viewer: { id: number; isAdmin: boolean },
  input: TicketInput,
): { id: string; doc: CampaignDoc } {
  const positions = services.positions;
  const spread = positions.tradable(viewer, input.spread);
  const prices = services.hub.snapshot().prices;
  const legs: Record<string, CampaignLeg> = {};
  for (const leg of spread.legs) {
    const spec = positions.specOf(leg.instrument);
    const exchange = spec && kiteOrderExchange(spec);
    if (!spec || !exchange)
      throw new ExecutionRefusal(
        `Leg ${leg.name} (${leg.instrument}) is not traded on Kite; only MCX, NFO and CDS futures are sent, never CME`,
      );
    const tradingsymbol = prices.contracts?.[leg.instrument]?.contract;
    if (!tradingsymbol)
      throw new ExecutionRefusal(
        `Kite does not list a contract for leg ${leg.name} (${leg.instrument}) yet`,
      );
    // The guard prices its orders off the book: a leg with only a last price (or none) would
    // be sent at a guess.
    const book = prices.mcx[leg.instrument];
    if (book?.bid === undefined || book.ask === undefined)
      throw new ExecutionRefusal(
        `Leg ${leg.name} (${leg.instrument}) has no bid and ask on the hub to price its order${spec.exchange === "NSE" ? " (an NSE future is quoted with a book when added as an NFO instrument)" : ""}; nothing was sent`,
      );
    legs[leg.name] = {
      instrument: leg.instrument,
      exchange,
      tradingsymbol,
      product: "NRML",
      tick: spec.tick,
      quantityPerLot: kiteQuantity(spec, 1),
    };
  }
  if (spread.legs.length !== 2)
    throw new ExecutionRefusal(
      `${spread.symbol} has ${spread.legs.length} legs; only a spread of two legs can be sent`,
    );
  const live = positions.liveOrRefuse(spread, input.side);
  const directions = spread.checked?.compiled.directions ?? {};
  const sideOf = (name: string): OrderSide =>
    (directions[name] === 1) === (input.side === "BUY") ? "BUY" : "SELL";
  const books = spread.legs.map((leg) => {
    const book = prices.mcx[leg.instrument];
    return {
      name: leg.name,
      bid: book?.bid ?? 0,
      ask: book?.ask ?? 0,
      tick: legs[leg.name]?.tick ?? 1,
    };
  });
  const workName = thinnerLeg(books) as string;
  const hedgeName = spread.legs.find((leg) => leg.name !== workName)?.name as string;
  const quantityOf = (name: string) =>
    ticketLots(spread.legs, name, input.lots) * (legs[name]?.quantityPerLot ?? 1);
  const guard: GuardTicket = {
    work: {
      name: workName,
      side: sideOf(workName),
      quantity: quantityOf(workName),
      tick: legs[workName]?.tick ?? 1,
      price: onTick(live.legs[workName] as number, legs[workName]?.tick ?? 1),
    },
    hedge: {
      name: hedgeName,
      side: sideOf(hedgeName),
      quantity: quantityOf(hedgeName),
      tick: legs[hedgeName]?.tick ?? 1,
    },
    payUpTicks: input.payUpTicks,
    hedgeTimeoutMs: input.hedgeTimeoutMs,
    adverseTicks: input.adverseTicks,
    onHedgeFail: input.onHedgeFail,
  };
  return {
    id: newCampaignId(),
    doc: {
      ticket: input,
      target: live.value,
      guard,
      legs,
      state: initialGuardState(),
      events: [],
    },
  };
}

/**
 * A leg's lots for a ticket of `lots`: the definition's lots of the leg per spread lot, 1 where
 * it gives none (a calendar written as `b - a`), so the ticket and its preview count alike.
 */
export function ticketLots(
  legs: ReadonlyArray<{ name: string; lots?: number | undefined }>,
  name: string,
  lots: number,
): number {
  return lots * (legs.find((leg) => leg.name === name)?.lots ?? 1);
}

/**
 * The exact requests the ticket sends: the working leg's now, and the hedge's as it would go on
 * a fill of the whole quantity at today's prices (its price is taken again at the fill).
 */
export function ticketRequests(
  services: { hub: MarketHub },
  id: string,
  doc: CampaignDoc,
): Array<OrderRequest & { leg: string }> {
  const prices = services.hub.snapshot().prices;
  const executable = executableFrom(prices, doc);
  const first = guardStep(id, doc.guard, doc.state, Date.now(), executable);
  const work = first.place[0];
  if (!work) return [];
  const filled = {
    ...first.state,
    orders: [{ ...work, state: "complete" as const, filled: work.quantity, orderId: "?" }],
  };
  const hedge = guardStep(id, doc.guard, filled, Date.now(), executable).place[0];
  return [work, hedge]
    .filter((o) => o !== undefined)
    .map((o) => ({ leg: o.leg, ...placeRequest(o, doc.legs[o.leg] as OrderLeg) }));
}

/** One leg of a ticket as its preview shows it: what is sent for it, in lots and in Kite's units. */
export interface TicketLeg {
  leg: string;
  instrument: string;
  exchange: string;
  tradingsymbol: string;
  side: OrderSide;
  lots: number;
  quantity: number;
}

/** The ticket's legs, working leg first, with the lots and quantities its orders carry. */
export function ticketLegs(doc: CampaignDoc): TicketLeg[] {
  return [doc.guard.work, doc.guard.hedge].map((guardLeg) => {
    const leg = doc.legs[guardLeg.name] as CampaignLeg;
    return {
      leg: guardLeg.name,
      instrument: leg.instrument,
      exchange: leg.exchange,
      tradingsymbol: leg.tradingsymbol,
      side: guardLeg.side,
      lots: guardLeg.quantity / (leg.quantityPerLot ?? 1),
      quantity: guardLeg.quantity,
    };
  });
}

/**
 * The round trip's costs of what the ticket sends, ₹: each leg's lots at its order's price, by
 * the cost rates positions are valued with (core definition-per-lot.ts: MCX, NFO and CDS legs
 * with their exchange's charges and taxes). Null when a leg's order has no price.
 */
export function ticketCostsInr(
  doc: CampaignDoc,
  requests: ReadonlyArray<OrderRequest & { leg: string }>,
  rates: CostRates,
  specOf: SpecOf,
): number | null {
  const legs = ticketLegs(doc).map((leg) => ({
    name: leg.leg,
    instrument: leg.instrument,
    lots: leg.lots,
  }));
  const prices = Object.fromEntries(
    requests.map((r) => [r.leg, Number(r.body.price)] as const).filter(([, p]) => p > 0),
  );
  const breakdown = definitionCosts(legs, prices, Number.NaN, rates, specOf);
  return breakdown ? roundPaise(totalCosts(breakdown)) : null;
}

/** The guard's view of the market: a leg's executable price from the hub's prices. */
export function executableFrom(
  prices: ReturnType<MarketHub["snapshot"]>["prices"],
  doc: Pick<CampaignDoc, "legs">,
) {
  return (leg: string, side: OrderSide): number | undefined => {
    const instrument = doc.legs[leg]?.instrument;
    if (!instrument) return undefined;
    const book = prices.mcx[instrument];
    return side === "BUY" ? book?.ask : book?.bid;
  };
}
