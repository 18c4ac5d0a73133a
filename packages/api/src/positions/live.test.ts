import { emptyPrices, type InstrumentSpec, shippedInstrument } from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import type { RegisteredSpread } from "../spreads/registry.ts";
import { expiresInDays, ROLL_WARNING_DAYS } from "./live.ts";

const specOf = (key: string): InstrumentSpec | undefined => shippedInstrument(key);
const spread = (instruments: string[]) =>
  ({
    legs: instruments.map((instrument, i) => ({ name: `l${i}`, instrument })),
  }) as unknown as RegisteredSpread;

/** 2026-03-10 12:00 IST. */
const NOW = Date.parse("2026-03-10T06:30:00Z");

function pricesWith(contracts: Record<string, string>) {
  const prices = emptyPrices();
  prices.contracts = Object.fromEntries(
    Object.entries(contracts).map(([key, expiry]) => [key, { contract: `${key}X`, expiry }]),
  );
  return prices;
}

describe("expiresInDays", () => {
  it("counts IST days to the nearest near-month leg's expiry the feed names, within the window", () => {
    const calendar = spread(["GOLD", "GOLD@next"]);
    expect(expiresInDays(calendar, pricesWith({ GOLD: "2026-03-13" }), specOf, NOW)).toBe(3);
    expect(expiresInDays(calendar, pricesWith({ GOLD: "2026-03-10" }), specOf, NOW)).toBe(0);
    // Beyond the window, or only a next-month leg close to expiry: nothing to say.
    const later = `2026-03-${10 + ROLL_WARNING_DAYS + 1}`;
    expect(expiresInDays(calendar, pricesWith({ GOLD: later }), specOf, NOW)).toBeNull();
    expect(
      expiresInDays(spread(["GOLD@next"]), pricesWith({ "GOLD@next": "2026-03-12" }), specOf, NOW),
    ).toBeNull();
    // The nearer of two near legs.
    const parity = spread(["GOLD", "GC", "USDINR"]);
    expect(
      expiresInDays(parity, pricesWith({ GOLD: "2026-03-15", GC: "2026-03-12" }), specOf, NOW),
    ).toBe(2);
  });
});
