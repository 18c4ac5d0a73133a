import type { Prices } from "@spreadwatch/core";
import { useMemo, useState } from "react";
import { QuoteArrivals } from "../../market/quoteArrivals.ts";

/** Notes, as each snapshot renders, when its prices changed; see QuoteArrivals. */
export function useQuoteArrivals(prices: Prices | undefined): QuoteArrivals {
  const [arrivals] = useState(() => new QuoteArrivals());
  // Observing during render (not in an effect) lets the same render show "0 s ago".
  useMemo(() => arrivals.observe(prices, Date.now()), [arrivals, prices]);
  return arrivals;
}
