import { describe, expect, it } from "vitest";
import { kiteSessionNotice } from "./kite-session.ts";

// 06:00 IST on 2026-03-03 is 00:30 UTC: the end of the session made on the 2nd.
const ENDS = Date.UTC(2026, 2, 3, 0, 30);
const MIN = 60_000;

describe("kiteSessionNotice", () => {
  it("says nothing while the end is more than an hour away, or nothing is linked", () => {
    expect(kiteSessionNotice(ENDS, ENDS - 61 * MIN)).toBeUndefined();
    expect(kiteSessionNotice(null, ENDS)).toBeUndefined();
  });

  it("warns within the hour before the end, with the minutes left rounded up", () => {
    expect(kiteSessionNotice(ENDS, ENDS - 60 * MIN)).toEqual({ kind: "ending", minutesLeft: 60 });
    expect(kiteSessionNotice(ENDS, ENDS - 90_000)).toEqual({ kind: "ending", minutesLeft: 2 });
  });

  it("says the session ended from its end on", () => {
    expect(kiteSessionNotice(ENDS, ENDS)).toEqual({ kind: "ended" });
    expect(kiteSessionNotice(ENDS, ENDS + 5 * MIN)).toEqual({ kind: "ended" });
  });
});
