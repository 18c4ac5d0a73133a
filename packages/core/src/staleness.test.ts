import { describe, expect, it } from "vitest";
import { isStale, STALE_AFTER_MS } from "./staleness.ts";

describe("isStale", () => {
  const now = 1_800_000_000_000;

  it("marks prices older than 10 s", () => {
    expect(STALE_AFTER_MS).toBe(10_000);
    expect(isStale(now, now)).toBe(false);
    expect(isStale(now - 9_999, now)).toBe(false);
    expect(isStale(now - 10_000, now)).toBe(false);
    expect(isStale(now - 10_001, now)).toBe(true);
    expect(isStale(now - 3_600_000, now)).toBe(true);
  });

  it("treats a timestamp from the future as fresh", () => {
    expect(isStale(now + 5_000, now)).toBe(false);
  });

  it("treats an unknown age as stale", () => {
    expect(isStale(undefined, now)).toBe(true);
    expect(isStale(null, now)).toBe(true);
    expect(isStale(Number.NaN, now)).toBe(true);
  });
});
