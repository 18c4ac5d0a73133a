import { afterEach, describe, expect, it } from "vitest";
import { StreamWindow } from "./stream-window.ts";

let window: StreamWindow | undefined;
afterEach(() => window?.close());

describe("StreamWindow", () => {
  it("doubles while the loop lags, up to the cap, and halves back once it keeps up", () => {
    window = new StreamWindow(25, 100);
    expect(window.current).toBe(25);
    const seen = [5, 45, 45, 45, 20, 8, 2, 2].map((lag) => {
      window?.reconsider(lag);
      return window?.current;
    });
    // 20 ms is between the marks: the window holds.
    expect(seen).toEqual([25, 50, 100, 100, 100, 50, 25, 25]);
  });
});
