// What a spread leg's order is on Kite (docs/user-guide.md "Live orders"): the exchange it goes
// to and its quantity in Kite's units. Only Indian futures are sent: MCX, NSE futures (Kite's
// NFO) and NSE currency futures (CDS); CME Group legs never are.
import type { Exchange, InstrumentSpec } from "./catalogue.ts";

export type KiteOrderExchange = "MCX" | "NFO" | "CDS";

/** An NSE instrument with a month is an NSE future, as the Kite feed reads it (docs/market-data.md). */
const ORDER_EXCHANGE: Partial<Record<Exchange, KiteOrderExchange>> = {
  MCX: "MCX",
  NFO: "NFO",
  CDS: "CDS",
  NSE: "NFO",
};

/** The Kite exchange a leg's futures orders go to; undefined for anything Kite cannot be sent. */
export function kiteOrderExchange(
  spec: Pick<InstrumentSpec, "exchange" | "month">,
): KiteOrderExchange | undefined {
  if (spec.month === null) return undefined;
  return ORDER_EXCHANGE[spec.exchange];
}

/**
 * Kite's `quantity` for `lots` lots: a multiple of the `lot_size` in Kite's instruments list. MCX
 * and CDS list 1 (a quantity of 1 is one lot: 1 kg of GOLD, $1,000 of USDINR), NFO the
 * contract's units (a NIFTY lot of 75 is a quantity of 75), which the catalogue's `lotUnits`
 * holds for a future quoted per unit (docs/instruments.md).
 */
export function kiteQuantity(
  spec: Pick<InstrumentSpec, "exchange" | "lotUnits" | "month">,
  lots: number,
): number {
  return kiteOrderExchange(spec) === "NFO" ? lots * spec.lotUnits : lots;
}
