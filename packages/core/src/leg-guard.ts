// The leg guard of a two-leg execution campaign (docs/user-guide.md "Live orders"): the working leg goes
// first as a LIMIT at the target; each fill of it is hedged on the other leg at its executable
// side plus pay-up ticks; a hedge that is rejected, not filled within its time, or that the market
// runs away from trips the guard, which cancels what rests and flattens the filled leg or leaves
// it for the trader with an alert, as the ticket chose. Pure: the server feeds it the orders as
// the broker last reported them and carries out what it answers.

export type OrderSide = "BUY" | "SELL";
export type GuardRole = "work" | "hedge" | "flatten";
/** sending: asked, no answer yet; unknown: the answer was lost (look it up by tag before resending). */
export type GuardOrderState =
  | "sending"
  | "unknown"
  | "open"
  | "complete"
  | "cancelled"
  | "rejected";
export type CampaignStatus =
  | "working"
  | "hedging"
  | "done"
  | "flattened"
  | "naked"
  | "cancelled"
  | "failed";

export interface GuardLeg {
  /** The leg's name in the spread's formula. */
  name: string;
  side: OrderSide;
  /** Broker quantity for the whole ticket. */
  quantity: number;
  tick: number;
}

export interface GuardTicket {
  work: GuardLeg & { price: number };
  hedge: GuardLeg;
  payUpTicks: number;
  hedgeTimeoutMs: number;
  /** Ticks the hedge leg's market may move past a resting hedge's limit before the guard trips. */
  adverseTicks: number;
  onHedgeFail: "flatten" | "alert";
}

export interface GuardOrder {
  role: GuardRole;
  leg: string;
  tag: string;
  side: OrderSide;
  quantity: number;
  /** null: a MARKET order (a flatten). */
  price: number | null;
  state: GuardOrderState;
  orderId: string | null;
  filled: number;
  averagePrice: number | null;
  cancelSent: boolean;
  message: string | null;
}

export interface GuardState {
  status: CampaignStatus;
  orders: GuardOrder[];
  /** When the unfilled part of the hedge trips the guard; null while nothing waits on a hedge. */
  hedgeDueAt: number | null;
  /** Why the guard tripped, once it has. */
  tripped: string | null;
  /** The trader cancelled, or live orders were switched off (nothing more is sent). */
  stopping: "cancel" | "kill" | null;
}

/** The price at which `side` of a leg trades now (ask to buy, bid to sell), if there is one. */
export type ExecutablePrice = (leg: string, side: OrderSide) => number | undefined;

export interface GuardStep {
  state: GuardState;
  place: GuardOrder[];
  /** Tags of orders to cancel. */
  cancel: string[];
  /** What happened, for the campaign's events (a trip, an alert). */
  events: string[];
}

export const TERMINAL_STATUSES: readonly CampaignStatus[] = [
  "done",
  "flattened",
  "naked",
  "cancelled",
  "failed",
];

export const MAX_TAG_LENGTH = 20;

/** Every order's tag: the campaign id, its role and its place in the campaign (Kite: ≤ 20 chars). */
export function orderTag(campaignId: string, role: GuardRole, index: number): string {
  return `${campaignId}${role[0]}${index}`.slice(0, MAX_TAG_LENGTH);
}

const opposite = (side: OrderSide): OrderSide => (side === "BUY" ? "SELL" : "BUY");

/** Still able to fill: asked for, unanswered or resting. */
export const isLive = (order: GuardOrder): boolean =>
  order.state === "sending" || order.state === "unknown" || order.state === "open";

const sum = (orders: readonly GuardOrder[], of: (o: GuardOrder) => number) =>
  orders.reduce((total, o) => total + of(o), 0);

/** A limit `ticks` ticks past the executable price, on the side that makes it fill. */
export function payUpPrice(price: number, side: OrderSide, ticks: number, tick: number): number {
  const raw = side === "BUY" ? price + ticks * tick : price - ticks * tick;
  return onTick(raw, tick);
}

/**
 * `price` on a whole tick, written with no more decimals than the tick has: 24000.35 on NFO's
 * 0.05, 83.2575 on CDS's 0.0025 (a float's product drifts off them, 24000.350000000002, and
 * Kite refuses a price that is not a multiple of the tick).
 */
export function onTick(price: number, tick: number): number {
  const places = Math.min(8, tick.toFixed(8).replace(/0+$/, "").split(".")[1]?.length ?? 0);
  return Number((Math.round(price / tick) * tick).toFixed(places));
}

/** The leg to work first: the thinner book, judged by its bid–ask width in ticks (wider: thinner). */
export function thinnerLeg(
  legs: ReadonlyArray<{ name: string; bid: number; ask: number; tick: number }>,
): string | undefined {
  let best: { name: string; width: number } | undefined;
  for (const leg of legs) {
    const width = (leg.ask - leg.bid) / leg.tick;
    if (!best || width >= best.width) best = { name: leg.name, width };
  }
  return best?.name;
}

/** Slippage in ticks against the targeted spread: positive when the fills cost the trader. */
export function slippageTicks(
  target: number,
  filled: number,
  side: OrderSide,
  tick: number,
): number {
  const worse = side === "BUY" ? filled - target : target - filled;
  return Math.round((worse / tick) * 100) / 100;
}

export function initialGuardState(): GuardState {
  return { status: "working", orders: [], hedgeDueAt: null, tripped: null, stopping: null };
}

function newOrder(
  campaignId: string,
  index: number,
  role: GuardRole,
  leg: string,
  side: OrderSide,
  quantity: number,
  price: number | null,
): GuardOrder {
  return {
    role,
    leg,
    tag: orderTag(campaignId, role, index),
    side,
    quantity,
    price,
    state: "sending",
    orderId: null,
    filled: 0,
    averagePrice: null,
    cancelSent: false,
    message: null,
  };
}

/** Why the guard trips now, if it does. */
function tripReason(
  ticket: GuardTicket,
  state: GuardState,
  hedges: readonly GuardOrder[],
  hedgeFilled: number,
  hedgeNeeded: number,
  now: number,
  executable: ExecutablePrice,
): string | undefined {
  const rejected = hedges.find((o) => o.state === "rejected");
  if (rejected) return `the hedge was rejected: ${rejected.message ?? "no reason given"}`;
  if (state.hedgeDueAt !== null && now >= state.hedgeDueAt && hedgeFilled < hedgeNeeded)
    return `the hedge was not filled within ${ticket.hedgeTimeoutMs} ms`;
  for (const hedge of hedges) {
    if (!isLive(hedge) || hedge.price === null) continue;
    const price = executable(hedge.leg, hedge.side);
    if (price === undefined) continue;
    const away =
      (hedge.side === "BUY" ? price - hedge.price : hedge.price - price) / ticket.hedge.tick;
    if (away >= ticket.adverseTicks)
      return `the market moved ${Math.round(away)} ticks against the hedge`;
  }
  return undefined;
}

/**
 * One step of the guard: from the orders as last reported, what to place, what to cancel and the
 * campaign's status. Called again after every change; it never places what it placed before
 * (orders carry their own state), so calling it twice with the same state is harmless.
 */
export function guardStep(
  campaignId: string,
  ticket: GuardTicket,
  state: GuardState,
  now: number,
  executable: ExecutablePrice,
): GuardStep {
  const next: GuardState = { ...state, orders: state.orders };
  const step: GuardStep = { state: next, place: [], cancel: [], events: [] };
  if (TERMINAL_STATUSES.includes(state.status)) return step;
  const { work, hedge } = ticket;
  const ratio = hedge.quantity / work.quantity;
  const works = state.orders.filter((o) => o.role === "work");
  const hedges = state.orders.filter((o) => o.role === "hedge");
  const flattens = state.orders.filter((o) => o.role === "flatten");
  const workFilled = sum(works, (o) => o.filled);
  const hedgeFilled = sum(hedges, (o) => o.filled);
  const hedgeNeeded = Math.round(workFilled * ratio);
  const index = () => state.orders.length + step.place.length + 1;
  const place = (order: GuardOrder) => step.place.push(order);
  const cancelLive = (orders: readonly GuardOrder[]) => {
    for (const o of orders)
      if (isLive(o) && o.orderId !== null && !o.cancelSent) step.cancel.push(o.tag);
  };
  const anyLive = (orders: readonly GuardOrder[]) => orders.some(isLive);
  // Work-leg quantity left without its hedge or a flatten.
  const naked = () =>
    workFilled - sum(flattens, (o) => (isLive(o) ? o.quantity : o.filled)) - hedgeFilled / ratio;

  if (works.length === 0 && !state.stopping) {
    place(newOrder(campaignId, index(), "work", work.name, work.side, work.quantity, work.price));
    return step;
  }
  if (works.some((o) => o.state === "rejected") && workFilled === 0 && hedges.length === 0) {
    const why = works.find((o) => o.state === "rejected")?.message ?? "no reason given";
    next.status = "failed";
    step.events.push(`the first leg was rejected: ${why}`);
    return step;
  }

  if (state.stopping === "kill") {
    cancelLive(state.orders);
    if (anyLive(state.orders)) return step;
    const left = naked();
    if (left > 0) {
      next.status = "naked";
      step.events.push(`live orders were switched off with ${left} of the first leg unhedged`);
    } else next.status = workFilled > 0 && workFilled === work.quantity ? "done" : "cancelled";
    return step;
  }

  if (next.tripped === null) {
    const reason = tripReason(ticket, state, hedges, hedgeFilled, hedgeNeeded, now, executable);
    if (reason !== undefined) {
      next.tripped = reason;
      step.events.push(`guard tripped: ${reason}`);
    }
  }
  if (next.tripped !== null) {
    cancelLive([...works, ...hedges]);
    if (ticket.onHedgeFail === "alert") {
      next.status = "naked";
      step.events.push(`alert: ${naked()} of the first leg is unhedged`);
      return step;
    }
    // Flatten once the resting orders are settled, so the quantity is final.
    if (anyLive(works) || anyLive(hedges)) return step;
    if (flattens.some((o) => o.state === "rejected")) {
      next.status = "naked";
      step.events.push(`alert: the flatten was rejected; ${naked()} of the first leg is unhedged`);
      return step;
    }
    const left = naked();
    if (left > 0) {
      const side = opposite(work.side);
      place(newOrder(campaignId, index(), "flatten", work.name, side, left, null));
      return step;
    }
    if (!anyLive(flattens)) next.status = "flattened";
    return step;
  }

  const hedgeCommitted = sum(hedges, (o) => (isLive(o) ? o.quantity : o.filled));
  if (hedgeNeeded > hedgeCommitted) {
    const side = hedge.side;
    const price = executable(hedge.name, side);
    // No price yet (a restart before the first quotes): wait, within the hedge's time.
    if (price !== undefined) {
      const limit = payUpPrice(price, side, ticket.payUpTicks, hedge.tick);
      const quantity = hedgeNeeded - hedgeCommitted;
      place(newOrder(campaignId, index(), "hedge", hedge.name, side, quantity, limit));
    }
    if (next.hedgeDueAt === null) next.hedgeDueAt = now + ticket.hedgeTimeoutMs;
  }
  if (hedgeFilled >= hedgeNeeded) next.hedgeDueAt = null;
  if (state.stopping === "cancel") cancelLive(works);

  const workSettled = !anyLive(works);
  const hedged = hedgeFilled >= hedgeNeeded && !anyLive(hedges);
  if (workSettled && hedged)
    // Short of the ticket: cancelled by the trader or in Kite, with whatever filled hedged.
    next.status = workFilled === work.quantity ? "done" : "cancelled";
  else next.status = workFilled > 0 ? "hedging" : "working";
  return step;
}
