// Which legs a position's roll moves (docs/user-guide.md "Positions (paper)"): each leg goes to
// the contract it quotes after its own roll. A leg whose feed already rolled past the contract
// held stays on its key (which now quotes the new month), and so does a leg already on a later
// month than the one expiring: a GC parity held as GOLD Dec against GC Feb rolls GOLD to Feb and
// leaves GC on Feb, never on Apr.
import { monthKey, parseInstrumentKey } from "./catalogue.ts";
import type { MonthSelector } from "./contract-calendar.ts";

/** One leg as a roll sees it. */
export interface RollingLeg {
  /** The instrument key: GOLD, GC@next, USDINR. */
  key: string;
  /** Its month selector; null for what does not expire (USDINR, spot, an index). */
  month: MonthSelector | null;
  /** The feed quotes another contract than the one the position holds on this leg. */
  moved: boolean;
  /** The delivery month of the contract the key quotes now (contractMonthIndex), if known. */
  contractMonth: number | undefined;
}

const LATER: Record<MonthSelector, MonthSelector> = { near: "next", next: "far", far: "far" };

function shifted(key: string): string {
  const { root, month } = parseInstrumentKey(key);
  return monthKey(root, LATER[month]);
}

function earliest(months: readonly (number | undefined)[]): number | undefined {
  const known = months.filter((m): m is number => m !== undefined);
  return known.length === 0 ? undefined : Math.min(...known);
}

/**
 * The key each leg holds after the roll, in the legs' order. With no leg moved by the feed, the
 * legs on the earliest month (or of unknown month) move one month on; with a leg moved, the legs
 * still on a month before the moved legs' new one catch up. A leg's other months (a calendar's
 * @next beside its near) move with it.
 */
export function rolledLegKeys(legs: readonly RollingLeg[]): string[] {
  const futures = legs.filter((leg) => leg.month !== null);
  const moved = futures.filter((leg) => leg.moved);
  const bar = earliest(moved.map((leg) => leg.contractMonth));
  const first = earliest(futures.map((leg) => leg.contractMonth));
  const moves = (leg: RollingLeg) => {
    if (leg.month === null || leg.moved) return false;
    if (moved.length > 0)
      return bar !== undefined && leg.contractMonth !== undefined && leg.contractMonth < bar;
    return leg.contractMonth === undefined || leg.contractMonth === first;
  };
  const roots = new Set(futures.filter(moves).map((leg) => parseInstrumentKey(leg.key).root));
  return legs.map((leg) =>
    leg.month !== null && !leg.moved && roots.has(parseInstrumentKey(leg.key).root)
      ? shifted(leg.key)
      : leg.key,
  );
}
