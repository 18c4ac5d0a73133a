import { describe, expect, it } from "vitest";
import { shippedInstrument } from "./catalogue.ts";
import { kiteOrderExchange, kiteQuantity } from "./kite-order.ts";

const nifty = { exchange: "NFO", lotUnits: 75, month: "near" } as const;
const usdinr = { exchange: "CDS", lotUnits: 1000, month: "near" } as const;

describe("a leg's Kite order", () => {
  it("goes to MCX, NFO or CDS for a future, never for CME Group or a price without a month", () => {
    expect(kiteOrderExchange({ exchange: "MCX", month: "next" })).toBe("MCX");
    expect(kiteOrderExchange(nifty)).toBe("NFO");
    expect(kiteOrderExchange(usdinr)).toBe("CDS");
    expect(kiteOrderExchange({ exchange: "NSE", month: "near" })).toBe("NFO");
    expect(kiteOrderExchange(shippedInstrument("GC") as never)).toBeUndefined();
    expect(kiteOrderExchange(shippedInstrument("NIFTY50") as never)).toBeUndefined();
    expect(kiteOrderExchange(shippedInstrument("USDINR") as never)).toBeUndefined();
  });

  it("counts NFO in units (lots × lot size), MCX and CDS in lots", () => {
    expect(kiteQuantity(nifty, 2)).toBe(150);
    expect(kiteQuantity(usdinr, 3)).toBe(3);
    expect(kiteQuantity({ exchange: "NSE", lotUnits: 75, month: "next" }, 1)).toBe(75);
    expect(kiteQuantity(shippedInstrument("GOLD") as never, 4)).toBe(4);
  });
});
