import { afterEach, describe, expect, it } from "vitest";
import { StreamWindow } from "./stream-window.ts";

let window: StreamWindow | undefined;
afterEach(() => window?.close());

/** The window after each check of [loop delay ms, share of time spent writing]. */
function run(checks: Array<[number, number]>): number[] {
  window = new StreamWindow(25);
  return checks.map(([lag, share]) => {
    window?.reconsider(lag, share);
    return window?.current ?? Number.NaN;
  });
}

describe("StreamWindow", () => {
  it("is closed at rest, opens at 25 ms while the fan-out lags the loop, and closes once it keeps up", () => {
    // 20 ms (or a 30 % share) is between the marks: the window holds.
    expect(
      run([
        [5, 0.9],
        [45, 0.6],
        [45, 0.6],
        [20, 0.6],
        [45, 0.3],
        [8, 0.6],
        [20, 0.6],
      ]),
    ).toEqual([0, 25, 25, 25, 25, 0, 0]);
  });

  it("stays closed when the loop lags but the writes are not what fills it", () => {
    expect(
      run([
        [80, 0.1],
        [80, 0.4],
        [80, 0.6],
        [80, 0.4],
        [80, 0.1],
      ]),
    ).toEqual([0, 0, 25, 25, 0]);
  });
});
