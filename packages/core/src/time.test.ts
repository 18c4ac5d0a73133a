import { describe, expect, it } from "vitest";
import {
  formatChartTitle,
  formatIstTime,
  formatIstTimestamp,
  formatTickLabel,
  formatTickLabels,
  IST_TIME_ZONE,
} from "./time.ts";

// ICU versions differ on which space goes before "am"/"pm" (U+0020 or U+202F); the text a
// trader reads is the same, so compare with spaces normalised.
const spaces = (text: string) => text.replace(/\s/g, " ");

const LATE_EVENING = Date.parse("2026-11-21T17:54:46Z"); // 23:24:46 IST
const IST_MIDNIGHT = Date.parse("2026-11-21T18:30:00Z"); // 00:00:00 IST, Nov 22
const MORNING = Date.parse("2026-01-02T03:35:03Z"); // 09:05:03 IST
const SEPTEMBER_NOON = Date.parse("2026-09-05T06:30:00Z"); // 12:00 IST

describe("IST timestamps", () => {
  it("uses Asia/Kolkata", () => {
    expect(IST_TIME_ZONE).toBe("Asia/Kolkata");
  });

  it("formats date and time en-IN style with an IST suffix", () => {
    expect(spaces(formatIstTimestamp(LATE_EVENING))).toBe("21/11/2026, 11:24:46 pm IST");
    expect(spaces(formatIstTimestamp(MORNING))).toBe("2/1/2026, 9:05:03 am IST");
    expect(spaces(formatIstTimestamp(0))).toBe("1/1/1970, 5:30:00 am IST");
  });

  it("moves to the next day at 18:30 UTC", () => {
    expect(spaces(formatIstTimestamp(IST_MIDNIGHT))).toBe("22/11/2026, 12:00:00 am IST");
    expect(spaces(formatIstTimestamp(IST_MIDNIGHT - 1000))).toBe("21/11/2026, 11:59:59 pm IST");
  });

  it("formats the time of day alone", () => {
    expect(spaces(formatIstTime(LATE_EVENING))).toBe("11:24:46 pm IST");
    expect(spaces(formatIstTime(IST_MIDNIGHT))).toBe("12:00:00 am IST");
    expect(spaces(formatIstTime(SEPTEMBER_NOON))).toBe("12:00:00 pm IST");
  });

  it("shows the missing marker for no time or an invalid one", () => {
    for (const bad of [undefined, null, Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 1]) {
      expect(formatIstTimestamp(bad)).toBe("—");
      expect(formatIstTime(bad)).toBe("—");
      expect(formatChartTitle(bad)).toBe("—");
      expect(formatTickLabel(bad, "1h")).toBe("—");
    }
  });
});

describe("chart time formats", () => {
  it("titles tooltips 'MMM dd, yyyy HH:mm' in IST", () => {
    expect(formatChartTitle(LATE_EVENING)).toBe("Nov 21, 2026 23:24");
    expect(formatChartTitle(IST_MIDNIGHT)).toBe("Nov 22, 2026 00:00");
    expect(formatChartTitle(MORNING)).toBe("Jan 02, 2026 09:05");
  });

  it("abbreviates September to three letters", () => {
    expect(formatChartTitle(SEPTEMBER_NOON)).toBe("Sep 05, 2026 12:00");
    expect(formatTickLabel(SEPTEMBER_NOON, "1d")).toBe("05 Sep");
  });

  it("puts the day under the first tick and each tick on a new IST day, below 1d", () => {
    const HOUR = 3_600_000;
    // 22:00, 23:00 IST on 21 Nov, then midnight and 01:00 on 22 Nov.
    const ticks = [-2, -1, 0, 1].map((h) => IST_MIDNIGHT + h * HOUR);
    expect(formatTickLabels(ticks, "1h")).toEqual([
      "22:00\n21 Nov",
      "23:00",
      "00:00\n22 Nov",
      "01:00",
    ]);
    // A day apart at 4h: every tick says which day, not just "00:00".
    const days = [0, 1, 2].map((d) => IST_MIDNIGHT + d * 24 * HOUR);
    expect(formatTickLabels(days, "4h")).toEqual([
      "00:00\n22 Nov",
      "00:00\n23 Nov",
      "00:00\n24 Nov",
    ]);
    expect(formatTickLabels(days, "1d")).toEqual(["22 Nov", "23 Nov", "24 Nov"]);
    expect(formatTickLabels([], "1h")).toEqual([]);
  });

  it("labels ticks 'dd MMM' for 1d and 'HH:mm' otherwise", () => {
    expect(formatTickLabel(IST_MIDNIGHT, "1d")).toBe("22 Nov");
    for (const tf of ["1m", "5m", "15m", "1h", "4h"] as const) {
      expect(formatTickLabel(LATE_EVENING, tf)).toBe("23:24");
      expect(formatTickLabel(IST_MIDNIGHT, tf)).toBe("00:00");
    }
  });
});
