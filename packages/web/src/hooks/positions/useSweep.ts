import {
  axisLength,
  type BacktestMetric,
  RULE_FIELDS,
  type RuleField,
  type SpreadRule,
  type SweepAxis,
  type SweepCell,
} from "@spreadwatch/core";
import { useCallback, useEffect, useRef, useState } from "react";
import type { SweepJob, SweepReply } from "../../backtest/sweep-messages.ts";

/** The most cells a sweep runs, as the server's sweep (docs/backtest.md, "Limits"). */
const MAX_CELLS = 400;

export interface SweepBody extends Record<string, unknown> {
  symbol: string;
  from: number;
  to: number;
  metric: BacktestMetric;
  sweep: { x: SweepAxis; y: SweepAxis };
}

export interface SweepState {
  running: boolean;
  done: number;
  total: number;
  cells?: SweepCell[] | undefined;
  error?: string | undefined;
  /** The request the shown cells answer (the same body POST /api/backtests/sweep takes). */
  body?: SweepBody | undefined;
}

/** Why a sweep cannot run, in the server's words; undefined when it can. */
export function sweepProblem(body: SweepBody): string | undefined {
  const { x, y } = body.sweep;
  for (const [name, a] of [
    ["x", x],
    ["y", y],
  ] as const) {
    if (!Number.isFinite(a.from)) return `sweep.${name}.from must be a finite number`;
    if (!Number.isFinite(a.to)) return `sweep.${name}.to must be a finite number`;
    if (!(a.step > 0)) return `sweep.${name}.step must be a number above 0`;
    if (a.to < a.from) return `sweep.${name}.to must not be below sweep.${name}.from`;
  }
  if (x.field === y.field) return "sweep.y.field must differ from sweep.x.field";
  for (const field of RULE_FIELDS) {
    const value = body[field];
    if (value !== undefined && typeof value !== "number") return `${field} must be a finite number`;
  }
  const swept = new Set<string>([x.field, y.field]);
  if (
    body.sellAbove === undefined &&
    body.buyBelow === undefined &&
    !swept.has("sellAbove") &&
    !swept.has("buyBelow")
  )
    return "sellAbove or buyBelow is required: a rule needs an entry";
  const cells = axisLength(x) * axisLength(y);
  if (cells > MAX_CELLS) return `sweep: ${cells} cells; a sweep has at most ${MAX_CELLS}`;
  return undefined;
}

/**
 * A sweep of the shown spread run in the browser (docs/backtest.md, "Sweeps"): a Web Worker
 * fetches the minutes and per-lot figures once (POST /api/backtests/history) and computes every
 * cell with core's backtestSpread, reporting its progress after each row.
 */
export function useSweep() {
  const [state, setState] = useState<SweepState>({ running: false, done: 0, total: 0 });
  const worker = useRef<Worker | undefined>(undefined);
  useEffect(() => () => worker.current?.terminate(), []);

  const run = useCallback(async (body: SweepBody) => {
    worker.current?.terminate();
    worker.current = undefined;
    const problem = sweepProblem(body);
    if (problem) {
      setState({ running: false, done: 0, total: 0, error: problem });
      return;
    }
    setState({ running: true, done: 0, total: axisLength(body.sweep.y) });
    try {
      const { symbol, from, to } = body;
      const rule: SpreadRule = { metric: body.metric, lots: 1, slippageTicks: 0 };
      for (const field of [...RULE_FIELDS, "lots", "slippageTicks"] as const) {
        const value = body[field];
        if (typeof value === "number")
          (rule as unknown as Record<RuleField, number>)[field as RuleField] = value;
      }
      const job: SweepJob = { history: { symbol, from, to }, rule, sweep: body.sweep };
      const thread = new Worker(new URL("../../backtest/sweep.worker.ts", import.meta.url), {
        type: "module",
      });
      worker.current = thread;
      thread.onmessage = (event: MessageEvent<SweepReply>) => {
        const reply = event.data;
        if (reply.type === "progress")
          setState((s) => ({ ...s, done: reply.done, total: reply.total }));
        else {
          thread.terminate();
          if (worker.current === thread) worker.current = undefined;
          setState((s) =>
            reply.type === "cells"
              ? { running: false, done: s.total, total: s.total, cells: reply.cells, body }
              : { running: false, done: 0, total: 0, error: reply.message },
          );
        }
      };
      thread.onerror = (event) => {
        thread.terminate();
        setState({
          running: false,
          done: 0,
          total: 0,
          error: event.message || "The sweep failed",
        });
      };
      thread.postMessage(job);
    } catch (error) {
      setState({
        running: false,
        done: 0,
        total: 0,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }, []);
  return { ...state, run };
}
