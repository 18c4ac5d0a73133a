// A sweep run off the page's thread (docs/backtest.md, "Sweeps"): the worker fetches the minutes
// once (POST /api/backtests/history, the session's cookie going with it) and parses them here,
// then runs core's sweepBacktest one row of cells at a time with the progress after each, so
// neither the year's JSON nor the cells ever hold the page's thread.
import { axisValues, backtestSeries, type SweepCell, sweepBacktest } from "@spreadwatch/core";
import type { BacktestHistory, SweepJob, SweepReply } from "./sweep-messages.ts";

const reply = (message: SweepReply) => self.postMessage(message);

const column = (values: readonly (number | null)[]) =>
  Float64Array.from(values, (v) => (v === null ? Number.NaN : v));

async function fetchHistory(body: SweepJob["history"]): Promise<BacktestHistory> {
  const res = await fetch("/api/backtests/history", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(json.error ?? `The history could not be read (HTTP ${res.status})`);
  return json as BacktestHistory;
}

self.onmessage = async (event: MessageEvent<SweepJob>) => {
  try {
    const { history, rule, sweep } = event.data;
    const data = await fetchHistory(history);
    const columns = {
      times: Float64Array.from(data.times),
      buy: column(data.buy),
      sell: column(data.sell),
      mid: data.mid ? column(data.mid) : undefined,
    };
    const { options } = data;
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
