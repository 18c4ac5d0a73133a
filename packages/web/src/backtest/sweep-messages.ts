// What the sweep's Web Worker is sent and answers (docs/backtest.md, "Sweeps").
import type { RouterOutputs } from "@spreadwatch/api";
import type { SpreadRule, SweepAxis, SweepCell } from "@spreadwatch/core";

/** POST /api/backtests/history's answer: the minutes and options a run reads. */
export type BacktestHistory = RouterOutputs["backtests"]["history"];

export interface SweepJob {
  /** The body of POST /api/backtests/history: which minutes to fetch. */
  history: { symbol: string; from: number; to: number };
  rule: SpreadRule;
  sweep: { x: SweepAxis; y: SweepAxis };
}

export type SweepReply =
  | { type: "progress"; done: number; total: number }
  | { type: "cells"; cells: SweepCell[] }
  | { type: "error"; message: string };
