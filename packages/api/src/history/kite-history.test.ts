import { describe, expect, it } from "vitest";
import {
  kiteTime,
  parseKiteCandles,
  parseKiteStamp,
  RequestPacer,
  windowsOf,
} from "./kite-history.ts";

const DAY = 86_400_000;

describe("Kite's historical candles", () => {
  it("reads IST stamps with Kite's colon-less offset, and others", () => {
    expect(parseKiteStamp("2026-11-27T09:15:00+0530")).toBe(Date.parse("2026-11-27T03:45:00Z"));
    expect(parseKiteStamp("2026-11-27T09:15:00+05:30")).toBe(Date.parse("2026-11-27T03:45:00Z"));
    expect(parseKiteStamp("2026-11-27 09:15:00")).toBe(Date.parse("2026-11-27T03:45:00Z"));
    expect(parseKiteStamp("2026-11-27T03:45:00Z")).toBe(Date.parse("2026-11-27T03:45:00Z"));
    expect(parseKiteStamp("27/11/2026")).toBeUndefined();
    expect(parseKiteStamp(1764215100)).toBeUndefined();
  });

  it("writes from/to as IST exchange time", () => {
    expect(kiteTime(Date.parse("2026-11-27T03:45:00Z"))).toBe("2026-11-27 09:15:00");
  });

  it("parses [ts, o, h, l, c, v] rows oldest first and leaves out broken rows", () => {
    const candles = parseKiteCandles({
      status: "success",
      data: {
        candles: [
          ["2026-11-27T09:16:00+0530", 130_010, 130_050, 129_990, 130_020, 12],
          ["2026-11-27T09:15:00+0530", 130_000, 130_040, 129_980, 130_010, 30],
          ["not a time", 1, 1, 1, 1, 1],
          ["2026-11-27T09:17:00+0530", null, 1, 1, 1, 1],
          "junk",
        ],
      },
    });
    expect(candles).toEqual([
      { t: Date.parse("2026-11-27T03:45:00Z"), o: 130_000, h: 130_040, l: 129_980, c: 130_010 },
      { t: Date.parse("2026-11-27T03:46:00Z"), o: 130_010, h: 130_050, l: 129_990, c: 130_020 },
    ]);
  });

  it("says Kite's own sentence for an error envelope, and names a shape it cannot read", () => {
    expect(() =>
      parseKiteCandles({ status: "error", message: "Invalid token", error_type: "TokenException" }),
    ).toThrow(/Invalid token/);
    expect(() => parseKiteCandles({ status: "success", data: {} })).toThrow(/data.candles/);
  });

  it("cuts a window into requests of at most 60 days", () => {
    const from = Date.parse("2026-09-01T00:00:00Z");
    expect(windowsOf(from, from + 20 * DAY, 60)).toEqual([[from, from + 20 * DAY]]);
    const w = windowsOf(from, from + 130 * DAY, 60);
    expect(w.map(([a, b]) => (b - a) / DAY)).toEqual([60, 60, 10]);
    expect(w[1]?.[0]).toBe(w[0]?.[1]);
  });
});

describe("RequestPacer", () => {
  it("holds a place until a second after its answer: a fourth waits for the first", async () => {
    let clock = 0;
    const pacer = new RequestPacer(3, 0, () => clock);
    const answered = [await pacer.slot(), await pacer.slot(), await pacer.slot()];
    // All three out: a fourth waits (shown by aborting it).
    const abort = new AbortController();
    abort.abort(new Error("waited"));
    await expect(pacer.slot(abort.signal)).rejects.toThrow("waited");
    clock = 5_000;
    answered[0]?.();
    const abort2 = new AbortController();
    abort2.abort(new Error("still within the second"));
    await expect(pacer.slot(abort2.signal)).rejects.toThrow("still within the second");
    clock = 6_001;
    await expect(pacer.slot()).resolves.toBeTypeOf("function");
  });
});
