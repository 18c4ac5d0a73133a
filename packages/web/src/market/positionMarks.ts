import {
  type ContractMove,
  contractMoved,
  contractMoveText,
  isSpreadSymbol,
  type Prices,
} from "@spreadwatch/core";
import { definitionEntry, definitionInputs } from "./definitionRows.ts";
import type { FreshnessContext } from "./freshness.ts";
import { spreadInputs } from "./inputMarks.ts";
import { type LegProblem, legProblems } from "./legProblems.ts";

/** A position's legs as `GET /api/positions` lists them: the instrument and its entry fill. */
export type PositionLegs = Record<string, { instrument: string; price: number; contract?: string }>;

/** The exit value a position is marked at now, read from the stream's calculations. */
export interface LiveMark {
  /** The executable exit now; undefined when the stream has none (missing or crossed legs). */
  value: number | undefined;
  /** What keeps the mark from being one to act on; empty when every leg is fresh. */
  problems: LegProblem[];
  /** A leg's feed has rolled past the contract the position holds (seen in the stream at once). */
  moved?: ContractMove;
}

/**
 * The executable exit of a position from the live calculations (`GC_SELL` for a BUY on GC), and
 * whether its legs are stale, crossed or missing — the same judgement that greys a spread row,
 * so a position's mark greys exactly when its spread's row does.
 */
export function liveMark(
  markSymbol: string,
  legs: PositionLegs,
  calculations: Record<string, unknown>,
  prices: Prices,
  freshness: FreshnessContext,
): LiveMark {
  // A leg's feed rolled past the contract held: the live value is another contract's, so there is
  // no mark to show but the last one (the server says the same: contractMoved).
  const moved = contractMoved(legs, (key) => prices.contracts?.[key]?.contract);
  if (moved)
    return {
      value: undefined,
      problems: [{ kind: "rolled", text: contractMoveText(moved) }],
      moved,
    };
  if (isSpreadSymbol(markSymbol)) {
    const entry = calculations[markSymbol] as { spread?: unknown } | null | undefined;
    const value = typeof entry?.spread === "number" ? entry.spread : undefined;
    return { value, problems: legProblems(spreadInputs(markSymbol, prices), freshness) };
  }
  const entry = definitionEntry(calculations, markSymbol);
  const definitionLegs = Object.entries(legs).map(([name, leg]) => ({
    name,
    instrument: leg.instrument,
  }));
  return {
    value: entry?.spread,
    problems: legProblems(definitionInputs(definitionLegs, entry, prices), freshness),
  };
}
