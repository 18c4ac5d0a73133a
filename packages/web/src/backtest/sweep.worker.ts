// A sweep run off the page's thread (docs/backtest.md, "Sweeps"): core's backtestSpread over the
// minutes the page fetched once, one row of cells at a time with the progress after each, so
// the page stays responsive however long the sweep takes.
import { axisValues, backtestSeries, type SweepCell, sweepBacktest } from "@spreadwatch/core";
import type { SweepJob, SweepReply } from "./sweep-messages.ts";

const reply = (message: SweepReply) => self.postMessage(message);

self.onmessage = (event: MessageEvent<SweepJob>) => {
  try {
    const { columns, options, rule, sweep } = event.data;
    // Laid out and its metrics computed once for every cell.
    const series = backtestSeries(columns, options);
    const rows = axisValues(sweep.y);
    const cells: SweepCell[] = [];
    rows.forEach((y, i) => {
      cells.push(
        ...sweepBacktest(series, rule, options, { x: sweep.x, y: { ...sweep.y, from: y, to: y } }),
      );
      reply({ type: "progress", done: i + 1, total: rows.length });
    });
    reply({ type: "cells", cells });
  } catch (error) {
    reply({ type: "error", message: error instanceof Error ? error.message : String(error) });
  }
};
