// A campaign's fills as a position (docs/user-guide.md "Live orders"): the
// lots whose both legs filled become a position marked live, entered at the spread of the real
// average fills, valued with the same marks, margin and P&L as a paper one.
import { type GuardOrder, slippageTicks } from "@spreadwatch/core";
import type { PositionFields, StoredExecution } from "@spreadwatch/db";
import type { PositionsService } from "../positions/service.ts";
import type { SpreadRegistry } from "../spreads/registry.ts";
import type { CampaignDoc } from "./ticket.ts";

const filledOf = (orders: readonly GuardOrder[], role: GuardOrder["role"]) =>
  orders.filter((o) => o.role === role).reduce((total, o) => total + o.filled, 0);

/** Each leg's average fill price over its working and hedge orders (flattens excluded). */
export function legAverages(doc: CampaignDoc): Record<string, number> {
  const prices: Record<string, number> = {};
  for (const leg of Object.keys(doc.legs)) {
    const fills = doc.state.orders.filter(
      (o) => o.leg === leg && o.role !== "flatten" && o.filled > 0 && o.averagePrice !== null,
    );
    const quantity = fills.reduce((t, o) => t + o.filled, 0);
    if (quantity > 0)
      prices[leg] = fills.reduce((t, o) => t + o.filled * (o.averagePrice ?? 0), 0) / quantity;
  }
  return prices;
}

/** Whole ticket lots with both legs filled and not flattened. */
export function hedgedLots(doc: CampaignDoc): number {
  const { work, hedge } = doc.guard;
  const lots = doc.ticket.lots;
  const orders = doc.state.orders;
  const workHeld = filledOf(orders, "work") - filledOf(orders, "flatten");
  return Math.max(
    0,
    Math.floor(
      Math.min(
        workHeld / (work.quantity / lots),
        filledOf(orders, "hedge") / (hedge.quantity / lots),
      ),
    ),
  );
}

/** The position a settled campaign opens, or undefined when no lot has both legs filled. */
export function livePositionFields(
  positions: PositionsService,
  spreads: SpreadRegistry,
  row: Pick<StoredExecution, "id" | "spread">,
  doc: CampaignDoc,
  now: number,
): (PositionFields & { executionId: string }) | undefined {
  const lots = hedgedLots(doc);
  const spread = spreads.bySymbolName(row.spread);
  const compiled = spread?.checked?.compiled;
  if (lots === 0 || !spread || !compiled) return undefined;
  const legs = legAverages(doc);
  const entry = compiled.evaluate(compiled.legs.map((name) => legs[name] as number));
  if (entry === undefined || !Number.isFinite(entry)) return undefined;
  return {
    spread: spread.symbol,
    side: doc.ticket.side,
    lots,
    entry,
    units: positions.unitsOf(spread),
    // The contracts the orders were sent on, whatever the feed has rolled to since.
    legs: Object.fromEntries(
      Object.entries(doc.legs).map(([name, leg]) => [
        name,
        { instrument: leg.instrument, price: legs[name] as number, contract: leg.tradingsymbol },
      ]),
    ),
    note: `Live: Kite campaign ${row.id}`,
    targetInr: null,
    stopInr: null,
    openedAt: now,
    executionId: row.id,
    slippageTicks: slippageTicks(doc.target, entry, doc.ticket.side, doc.guard.work.tick),
  };
}
