import type uPlot from "uplot";

/**
 * Asks for older candles when the x range reaches past the oldest one held (a pan or zoom
 * out), so history loads as the user scrolls back. The callback dedupes while a page loads.
 */
export function olderEdgePlugin(onReachOldest: () => void): uPlot.Plugin {
  return {
    hooks: {
      setScale: (u, key) => {
        if (key !== "x") return;
        const oldest = u.data[0][0];
        const min = u.scales.x?.min;
        if (oldest !== undefined && min != null && min < oldest) onReachOldest();
      },
    },
  };
}
