// An order ticket for a spread (docs/user-guide.md "Live orders"): both legs on Kite, the working leg (the
// thinner book) at the target, the hedge at its executable side plus pay-up ticks. Everything a
// ticket is refused for is found here, before anything is sent.
import { randomBytes } from "node:crypto";
import {
  type GuardState,
  type GuardTicket,
  guardStep,
  initialGuardState,
  type OrderSide,
  thinnerLeg,
} from "@spreadwatch/core";
import type { MarketHub } from "../market/hub.ts";
import { PositionError } from "../positions/position-error.ts";
import type { PositionsService } from "../positions/service.ts";
import { type OrderLeg, type OrderRequest, placeRequest } from "./kite-orders.ts";

/** Exchanges whose futures are sent through Kite (NSE futures, Kite's NFO, are not yet). */
const KITE_EXCHANGES: Partial<Record<string, string>> = { MCX: "MCX" };

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
 * or whose contract is unknown, stale or crossed legs, or a spread of other than two legs.
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
    const exchange = spec && KITE_EXCHANGES[spec.exchange];
    if (!spec || !exchange || spec.month === null)
      throw new ExecutionRefusal(
        `Leg ${leg.name} (${leg.instrument}) is not traded on Kite; only MCX futures are sent, never CME`,
      );
    const tradingsymbol = prices.contracts?.[leg.instrument]?.contract;
    if (!tradingsymbol)
      throw new ExecutionRefusal(
        `Kite does not list a contract for leg ${leg.name} (${leg.instrument}) yet`,
      );
    legs[leg.name] = {
      instrument: leg.instrument,
      exchange,
      tradingsymbol,
      product: "NRML",
      tick: spec.tick,
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
    const book = prices.mcx[leg.instrument] ?? prices.cme[leg.instrument];
    return {
      name: leg.name,
      bid: book?.bid ?? 0,
      ask: book?.ask ?? 0,
      tick: legs[leg.name]?.tick ?? 1,
    };
  });
  const workName = thinnerLeg(books) as string;
  const hedgeName = spread.legs.find((leg) => leg.name !== workName)?.name as string;
  const lotsOf = (name: string) =>
    input.lots * (spread.legs.find((leg) => leg.name === name)?.lots ?? 1);
  const guard: GuardTicket = {
    work: {
      name: workName,
      side: sideOf(workName),
      quantity: lotsOf(workName),
      tick: legs[workName]?.tick ?? 1,
      price: live.legs[workName] as number,
    },
    hedge: {
      name: hedgeName,
      side: sideOf(hedgeName),
      quantity: lotsOf(hedgeName),
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
