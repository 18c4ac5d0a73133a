import type uPlot from "uplot";

/**
 * Asks for older candles when the x range reaches past the oldest one held (a pan or zoom
 * out), so history loads as the user scrolls back. Checked again when data arrives, so a view
 * panned far back keeps loading page after page. The callback dedupes while a page loads and
 * stops once nothing older is left.
 */
export function olderEdgePlugin(onReachOldest: () => void): uPlot.Plugin {
  const check = (u: uPlot) => {
    const oldest = u.data[0][0];
    const min = u.scales.x?.min;
    if (oldest !== undefined && min != null && min < oldest) onReachOldest();
  };
  return {
    hooks: {
      setScale: (u, key) => {
        if (key === "x") check(u);
      },
      setData: check,
    },
  };
}
