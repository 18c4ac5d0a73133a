import { applyQuote, emptyPrices, type Quote } from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import type { ProviderHealth } from "../feeds/providers/health.ts";
import { LegWatch } from "./leg-watch.ts";

/** GC_BUY's three legs quoted at t = 0 on the watch's clock. */
function quoted(extra: Quote[] = []) {
  const prices = emptyPrices();
  const quotes: Quote[] = [
    { source: "fx", key: "USDINR", price: 84, ts: 0 },
    { source: "cme", key: "GC", bid: 2000, ask: 2000.5, ts: 0 },
    { source: "mcx", key: "GOLD", bid: 57_280, ask: 57_300, ts: 0 },
    ...extra,
  ];
  for (const q of quotes) applyQuote(prices, q);
  return prices;
}

function provider(keys: string[], fields: Partial<ProviderHealth>): ProviderHealth {
  return {
    name: "kite",
    kind: "kite",
    state: "live",
    delayed: false,
    keys,
    marketOpen: null,
    lastQuoteAt: null,
    lastQuoteAgeMs: null,
    reconnects: 0,
    lastError: null,
    lastErrorAt: null,
    silenceMs: 10_000,
    ...fields,
  };
}

describe("LegWatch", () => {
  it("holds a spread whose leg has been silent past the window, on the server's clock", () => {
    let now = 0;
    const watch = new LegWatch({ silenceMs: 10_000, now: () => now });
    for (const key of ["USDINR", "GC", "GOLD"]) watch.arrived(key);
    const prices = quoted();
    now = 10_000;
    expect(watch.holdReason("GC_BUY", prices)).toBeUndefined();
    now = 14_500;
    watch.arrived("GOLD");
    watch.arrived("USDINR");
    // Quote times do not matter (a delayed source's are old by design): arrivals do.
    expect(watch.holdReason("GC_BUY", prices)).toBe("Held: CME GC quote stale (no quote for 14 s)");
    watch.arrived("GC");
    expect(watch.holdReason("GC_BUY", prices)).toBeUndefined();
  });

  it("names a crossed book, a provider down and a closed market", () => {
    const now = 0;
    let providers = [provider(["GOLD"], { state: "down" })];
    const watch = new LegWatch({ silenceMs: 10_000, now: () => now, providers: () => providers });
    expect(watch.holdReason("GC_BUY", quoted())).toBe("Held: MCX GOLD feed down");
    providers = [provider(["GC"], { marketOpen: false })];
    watch.reset();
    expect(watch.holdReason("GC_BUY", quoted())).toBe("Held: CME GC market closed");
    providers = [];
    watch.reset();
    const crossed = quoted([{ source: "cme", key: "GC", bid: 2001, ask: 2000, ts: 1 }]);
    expect(watch.holdReason("GC_BUY", crossed)).toBe("Held: CME GC book crossed");
    expect(watch.holdReason("GC_BUY", emptyPrices())).toBe("Held: CME GC quote missing");
  });
});

describe("LegWatch on a definition's legs", () => {
  it("watches the instruments the engine gives a definition's symbol, and forgets them", () => {
    let now = 0;
    const watch = new LegWatch({ silenceMs: 10_000, now: () => now });
    const prices = quoted([
      { source: "mcx", key: "SILVER", bid: 90_000, ask: 90_050, ts: 0 },
      { source: "spot", key: "XAUUSD", price: 2001, ts: 0 },
    ]);
    // An unknown symbol has no legs: nothing to hold it on. A missing price has no group to name.
    expect(watch.holdReason("SP7_BUY", emptyPrices())).toBeUndefined();
    watch.setLegs("SP7_BUY", ["GOLD", "SILVER", "XAUUSD"]);
    expect(watch.holdReason("SP7_BUY", quoted())).toBe("Held: SILVER quote missing");
    for (const key of ["GOLD", "SILVER", "XAUUSD"]) watch.arrived(key);
    now = 12_000;
    watch.arrived("GOLD");
    watch.arrived("XAUUSD");
    expect(watch.holdReason("SP7_BUY", prices)).toBe(
      "Held: MCX SILVER quote stale (no quote for 12 s)",
    );
    watch.arrived("SILVER");
    expect(watch.holdReason("SP7_BUY", prices)).toBeUndefined();
    // GC and USDINR are silent, but they are not this definition's legs.
    expect(watch.holdReason("GC_BUY", prices)).toMatch(/^Held: CME GC quote stale/);
    const crossed = quoted([
      { source: "mcx", key: "SILVER", bid: 90_100, ask: 90_050, ts: 1 },
      { source: "spot", key: "XAUUSD", price: 2001, ts: 1 },
    ]);
    expect(watch.holdReason("SP7_BUY", crossed)).toBe("Held: MCX SILVER book crossed");
    watch.setLegs("SP7_BUY", ["XAUUSD"]);
    now = 30_000;
    expect(watch.holdReason("SP7_BUY", prices)).toBe(
      "Held: XAUUSD quote stale (no quote for 18 s)",
    );
    watch.forgetLegs("SP7_BUY");
    expect(watch.holdReason("SP7_BUY", prices)).toBeUndefined();
  });
});
