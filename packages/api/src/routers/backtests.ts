// Backtests of a spread rule on its executable history (docs/backtest.md): one run, or a sweep
// of two rule fields split in and out of sample. Both read up to a year of one-minute candles
// and compute in core, so a user runs at most two at a time.
import { backtestSeries, backtestSpread, type SweepCell, sweepBacktest } from "@spreadwatch/core";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { backtestInput, historyInput, sweepInput } from "../backtests/backtest-input.ts";
import { backtestData, ruleOf } from "../backtests/backtest-run.ts";
import { authedProcedure } from "../trpc.ts";
import { refusalAsTrpcError } from "./shared.ts";

/** Backtests and sweeps one user may have running at once on this instance. */
export const MAX_RUNNING_BACKTESTS = 2;
const running = new Map<number, number>();

/** Holds one of the user's running slots for `work`, or refuses with 429. */
async function slot<T>(userId: number, work: () => Promise<T>): Promise<T> {
  const now = running.get(userId) ?? 0;
  if (now >= MAX_RUNNING_BACKTESTS)
    throw new TRPCError({
      code: "TOO_MANY_REQUESTS",
      message: `At most ${MAX_RUNNING_BACKTESTS} backtests run at once; wait for one to finish`,
    });
  running.set(userId, now + 1);
  try {
    return await work();
  } catch (error) {
    throw refusalAsTrpcError(error);
  } finally {
    const left = (running.get(userId) ?? 1) - 1;
    if (left <= 0) running.delete(userId);
    else running.set(userId, left);
  }
}

const viewer = (user: { id: number; isAdmin: boolean }) => ({ id: user.id, isAdmin: user.isAdmin });

/** A column for JSON: a minute without the value (NaN) is null. */
const jsonColumn = (values: ArrayLike<number> | undefined): (number | null)[] | undefined =>
  values === undefined ? undefined : Array.from(values, (v) => (Number.isFinite(v) ? v : null));

/** Lets the event loop serve other requests between a sweep's cells. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

export const backtestsRouter = {
  /** POST /api/backtests: the rule's trades, summary and equity over [from, to). */
  run: authedProcedure.input(backtestInput).mutation(({ ctx, input }) =>
    slot(ctx.user.id, async () => {
      const { minutes, options } = await backtestData(ctx.services, viewer(ctx.user), input);
      return backtestSpread(minutes, ruleOf(input), options);
    }),
  ),

  /**
   * POST /api/backtests/history: the minutes (columns, oldest first; null where a minute has
   * no such value) and the options a run over [from, to) uses, so the browser runs core's
   * backtestSpread over exactly what the server would (docs/backtest.md, "Sweeps").
   */
  history: authedProcedure.input(historyInput).mutation(({ ctx, input }) =>
    slot(ctx.user.id, async () => {
      const { minutes, options } = await backtestData(ctx.services, viewer(ctx.user), input);
      return {
        times: Array.from(minutes.times),
        buy: jsonColumn(minutes.buy) as (number | null)[],
        sell: jsonColumn(minutes.sell) as (number | null)[],
        mid: jsonColumn(minutes.mid),
        options,
      };
    }),
  ),

  /** POST /api/backtests/sweep: every (x, y) cell's summary in sample and out of sample. */
  sweep: authedProcedure.input(sweepInput).mutation(({ ctx, input }) =>
    slot(ctx.user.id, async () => {
      const { minutes, options } = await backtestData(ctx.services, viewer(ctx.user), input);
      const rule = ruleOf(input);
      // Laid out and its metrics computed once for every row's cells.
      const series = backtestSeries(minutes, options);
      const cells: SweepCell[] = [];
      // One row of cells at a time, so a long sweep never holds the server for its whole run.
      const { x, y } = input.sweep;
      const rows = Math.floor((y.to - y.from) / y.step + 1e-9) + 1;
      for (let row = 0; row < rows; row++) {
        const at = Number((y.from + row * y.step).toPrecision(12));
        cells.push(...sweepBacktest(series, rule, options, { x, y: { ...y, from: at, to: at } }));
        await yieldToOthers();
      }
      return { cells };
    }),
  ),
} satisfies TRPCRouterRecord;
