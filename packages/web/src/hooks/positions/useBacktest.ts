import { trpc } from "../../trpc.ts";

/** A backtest of the shown spread, run on the server (docs/backtest.md); sweeps: useSweep. */
export function useBacktest() {
  return { run: trpc.backtests.run.useMutation() };
}
