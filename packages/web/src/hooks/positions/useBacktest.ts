import { trpc } from "../../trpc.ts";

/** A backtest and a sweep of the shown spread, run on the server (docs/backtest.md). */
export function useBacktest() {
  return {
    run: trpc.backtests.run.useMutation(),
    sweep: trpc.backtests.sweep.useMutation(),
  };
}
