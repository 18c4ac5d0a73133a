import type uPlot from "uplot";
import { describe, expect, it } from "vitest";
import { olderEdgePlugin } from "./olderEdge.ts";

/** What the plugin reads of a plot: the candle times and the x scale's left edge. */
function plot(times: number[], min: number | null): uPlot {
  return { data: [times], scales: { x: { min } } } as unknown as uPlot;
}

/** The plugin's hooks, and how many times it asked for older candles. */
function started() {
  const asked = { count: 0 };
  const { hooks } = olderEdgePlugin(() => asked.count++);
  const call = (name: "ready" | "setScale" | "setData", u: uPlot, key = "x") =>
    (hooks[name] as (u: uPlot, key: string) => void)(u, key);
  return { asked, call };
}

describe("olderEdgePlugin", () => {
  it("asks for nothing while the plot is built, whatever its range", () => {
    const { asked, call } = started();
    call("setScale", plot([1_000, 2_000], 0));
    call("setData", plot([1_000, 2_000], 0));
    expect(asked.count).toBe(0);
  });

  it("asks for older candles once the view reaches past the oldest one held", () => {
    const { asked, call } = started();
    call("ready", plot([1_000, 2_000], 1_000));
    call("setScale", plot([1_000, 2_000], 1_500));
    expect(asked.count).toBe(0);
    call("setScale", plot([1_000, 2_000], 999));
    expect(asked.count).toBe(1);
  });

  it("looks only at the x scale, and again when data arrives", () => {
    const { asked, call } = started();
    call("ready", plot([1_000], 500));
    call("setScale", plot([1_000], 500), "y");
    expect(asked.count).toBe(0);
    call("setData", plot([1_000], 500));
    expect(asked.count).toBe(1);
  });

  it("asks for nothing with no candles or no x range yet", () => {
    const { asked, call } = started();
    call("ready", plot([], 0));
    call("setData", plot([], 0));
    call("setData", plot([1_000], null));
    expect(asked.count).toBe(0);
  });
});
