import type { RouterOutputs } from "@spreadwatch/api";
import { type ContractMove, markPosition, type PositionMark, roundPaise } from "@spreadwatch/core";
import { useMemo, useRef } from "react";
import type { MarketSnapshot } from "../../market/applyDelta.ts";
import type { FreshnessContext } from "../../market/freshness.ts";
import type { LegProblem } from "../../market/legProblems.ts";
import { liveMark } from "../../market/positionMarks.ts";
import { trpc } from "../../trpc.ts";

/** `GET /api/positions`' row (docs/user-guide.md "Positions (paper)"). */
export type PositionView = RouterOutputs["positions"]["list"]["positions"][number];

/** The server's list is refetched this often for margins, costs and the day's open (the marks are live). */
export const POSITIONS_REFETCH_MS = 30_000;

const NONE: readonly PositionView[] = [];

/** The user's open positions; margins, costs and the day's open come from here, marks from the stream. */
export function useOpenPositions() {
  const list = trpc.positions.list.useQuery(undefined, {
    refetchInterval: POSITIONS_REFETCH_MS,
  });
  return { ...list, positions: list.data?.positions ?? NONE };
}

/** A position valued now: the server's row with core's mark and P&L figures computed in this browser. */
export interface LivePosition extends PositionMark {
  view: PositionView;
  /** Stale, crossed or missing legs: the mark is the last one and greyed. */
  stale: boolean;
  problems: LegProblem[];
  /** A leg's feed rolled past the contract held: from the stream, else the server's last word. */
  moved: ContractMove | null;
  /**
   * After a roll: the realised ₹ of every close in its campaign (the rolled positions and this
   * one's partial closes) plus this net now; null while the net is unknown. Undefined before
   * any roll, where it would only repeat the net.
   */
  campaignInr?: number | null;
}

/** Realised ₹ per campaign: every close of every position in it, open or closed. */
export function campaignRealised(views: readonly PositionView[]): Map<number, number> {
  const totals = new Map<number, number>();
  for (const view of views)
    for (const close of view.closes)
      totals.set(view.campaignId, (totals.get(view.campaignId) ?? 0) + close.realisedInr);
  return totals;
}

/** Each rolled position with its campaign's total (LivePosition.campaignInr). */
export function withCampaigns(
  positions: readonly LivePosition[],
  realised: ReadonlyMap<number, number>,
): LivePosition[] {
  return positions.map((position) => {
    const { view, netInr } = position;
    if (view.rolledFromId === null) return position;
    const campaignInr =
      netInr === null ? null : roundPaise((realised.get(view.campaignId) ?? 0) + netInr);
    return { ...position, campaignInr };
  });
}

/**
 * Marks every open position from the stream's executable values with core's markPosition, the
 * function the server values positions with, so the browser's figures are the server's. A
 * position whose exit has no value right now (a crossed or missing leg) keeps its last mark,
 * greyed, as the spread rows keep theirs.
 */
export function useLivePositions(
  views: readonly PositionView[],
  snapshot: MarketSnapshot | undefined,
  freshness: FreshnessContext,
): LivePosition[] {
  const lastMarks = useRef(new Map<number, number>());
  return useMemo(() => {
    const calculations = (snapshot?.calculations ?? {}) as Record<string, unknown>;
    return views.map((view) => {
      const live = snapshot
        ? liveMark(view.markSymbol, view.legs, calculations, snapshot.prices, freshness)
        : { value: undefined, problems: [] };
      if (live.value !== undefined) lastMarks.current.set(view.id, live.value);
      // The live value, else the last one seen here (after a feed's roll: the contract held's
      // last, which a roll then closes at), else the server's.
      const mark = live.value ?? lastMarks.current.get(view.id) ?? view.mark ?? undefined;
      const figures = markPosition(view, {
        mark,
        costsPerLotInr:
          view.costsInr !== null && view.lots > 0 ? view.costsInr / view.lots : undefined,
        marginInr: view.margin?.inr,
        dayOpenMark: view.dayOpenMark ?? undefined,
        now: freshness.now,
      });
      return {
        view,
        ...figures,
        mark: mark ?? null,
        stale: live.value === undefined || live.problems.length > 0,
        problems: live.problems,
        moved: live.moved ?? view.contractMoved ?? null,
      };
    });
  }, [views, snapshot, freshness]);
}

export interface PositionTotals {
  lots: number;
  grossInr: number;
  costsInr: number;
  netInr: number;
  changeTodayInr: number;
  /** Null while no position has a margin figure. */
  marginInr: number | null;
  returnOnMargin: number | null;
}

/** The table's totals row: sums of what is known (an unknown figure adds nothing). */
export function positionTotals(positions: readonly LivePosition[]): PositionTotals {
  const sum = (pick: (p: LivePosition) => number | null | undefined) =>
    positions.reduce((total, p) => total + (pick(p) ?? 0), 0);
  const netInr = sum((p) => p.netInr);
  const margined = positions.filter((p) => p.view.margin);
  const marginInr = margined.length > 0 ? sum((p) => p.view.margin?.inr) : null;
  return {
    lots: sum((p) => p.view.lots),
    grossInr: sum((p) => p.grossInr),
    costsInr: sum((p) => p.costsInr),
    netInr,
    changeTodayInr: sum((p) => p.changeTodayInr),
    marginInr,
    returnOnMargin: marginInr !== null && marginInr > 0 ? netInr / marginInr : null,
  };
}

/**
 * Refetches the user's positions whenever they change on any instance (another tab, a roll, a
 * close from a script): the server's `positions.onChange` carries no position data, only the news.
 */
export function usePositionsFollow() {
  const utils = trpc.useUtils();
  trpc.positions.onChange.useSubscription(undefined, {
    onData: () => void utils.positions.invalidate(),
  });
}

/** The user's closed positions with their closes. */
export function useClosedPositions() {
  return trpc.positions.list.useQuery(
    { status: "closed" },
    { refetchInterval: POSITIONS_REFETCH_MS },
  );
}

/** summariseClosed over the user's closes: net total, win rate, average holding, best, worst. */
export function usePositionSummary() {
  return trpc.positions.summary.useQuery(undefined, { refetchInterval: POSITIONS_REFETCH_MS });
}

/** Position mutations; each refetches the open list, the closed list and the summary when settled. */
export function usePositionChanges() {
  const utils = trpc.useUtils();
  const onSettled = () => utils.positions.invalidate();
  return {
    open: trpc.positions.open.useMutation({ onSettled }),
    patch: trpc.positions.patch.useMutation({ onSettled }),
    remove: trpc.positions.remove.useMutation({ onSettled }),
    close: trpc.positions.close.useMutation({ onSettled }),
    roll: trpc.positions.roll.useMutation({ onSettled }),
  };
}
