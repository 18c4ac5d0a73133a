import { describe, expect, it } from "vitest";
import { alertMessage, definitionDecimals } from "./firing-payload.ts";

/** 20 Nov 2026, 14:45:00 IST. */
const AT = Date.UTC(2026, 10, 20, 9, 15);

const firing = {
  commodityType: "SP7_BUY",
  label: "Gold/silver Buy",
  threshold: 80,
  value: 80.01234,
  spread: 80.01234,
  side: "above" as const,
  at: AT,
  count: 1,
  limit: 3,
};

describe("alertMessage for a definition's symbol", () => {
  it("names the definition and side, with the spread's two decimals", () => {
    expect(alertMessage(firing).split("\n")).toEqual([
      "🔔 Gold/silver Buy spread alert",
      "Spread 80.01 crossed above ⬆️ 80.00",
      "Time: 20/11/2026, 2:45:00 pm IST",
      "Notification 1 of 3",
    ]);
  });

  it("writes as many decimals as the threshold was typed with, so a small ratio reads", () => {
    const ratio = { ...firing, label: "Silver/gold Sell", threshold: 0.0125, value: 0.01234567 };
    expect(alertMessage({ ...ratio, side: "below" }).split("\n")[1]).toBe(
      "Spread 0.0123 crossed below ⬇️ 0.0125",
    );
  });

  it("gives a z-score with its spread, the spread keeping four significant digits under 1", () => {
    const z = { ...firing, metric: "zscore", threshold: 2, value: 2.345, spread: 0.0123456 };
    expect(alertMessage(z).split("\n").slice(0, 2)).toEqual([
      "🔔 Gold/silver Buy z-score alert",
      "Z-score 2.35 crossed above ⬆️ 2.00 (spread 0.01235)",
    ]);
  });

  it("names a symbol without a label by itself, and keeps core's names for built-ins", () => {
    const { label: _, ...bare } = firing;
    expect(alertMessage(bare).split("\n")[0]).toBe("🔔 SP7_BUY spread alert");
    // A built-in's label and decimals are core's, whatever label is passed.
    const copper = { ...firing, commodityType: "HG_SELL", label: "x", threshold: 1, value: 1.5 };
    expect(alertMessage(copper).split("\n").slice(0, 2)).toEqual([
      "🔔 Copper Sell spread alert",
      "Spread 1.5000 crossed above ⬆️ 1.0000",
    ]);
  });
});

describe("definitionDecimals", () => {
  it.each([
    [{ threshold: 80 }, 2],
    [{ threshold: 80.125 }, 3],
    [{ threshold: 1e-7 }, 2],
    [{ threshold: 0.123456789012 }, 8],
    [{ value: 250.5 }, 2],
    [{ value: 0.5 }, 4],
    [{ value: -0.00123 }, 6],
    [{ value: 0 }, 2],
    [{ value: Number.NaN }, 2],
    [{ value: 1e-12 }, 8],
  ])("%o → %i", (of, decimals) => {
    expect(definitionDecimals(of)).toBe(decimals);
  });
});
