// What the sweep's Web Worker is sent and answers (docs/backtest.md, "Sweeps").
import type {
  BacktestColumns,
  BacktestOptions,
  SpreadRule,
  SweepAxis,
  SweepCell,
} from "@spreadwatch/core";

export interface SweepJob {
  columns: BacktestColumns;
  options: BacktestOptions;
  rule: SpreadRule;
  sweep: { x: SweepAxis; y: SweepAxis };
}

export type SweepReply =
  | { type: "progress"; done: number; total: number }
  | { type: "cells"; cells: SweepCell[] }
  | { type: "error"; message: string };
