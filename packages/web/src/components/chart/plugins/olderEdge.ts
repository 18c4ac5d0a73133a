import type uPlot from "uplot";

/**
 * Asks for older candles when the x range reaches past the oldest one held (a pan or zoom
 * out), so history loads as the user scrolls back. Checked again when data arrives, so a view
 * panned far back keeps loading page after page. The callback dedupes while a page loads and
 * stops once nothing older is left.
 *
 * Nothing is asked for before uPlot's `ready`: while it is built it ranges x over all the data
 * (plus padding), which is not a view the user chose; the home view is set right after.
 */
export function olderEdgePlugin(onReachOldest: () => void): uPlot.Plugin {
  let ready = false;
  const check = (u: uPlot) => {
    if (!ready) return;
    const oldest = u.data[0][0];
    const min = u.scales.x?.min;
    if (oldest !== undefined && min != null && min < oldest) onReachOldest();
  };
  return {
    hooks: {
      ready: () => {
        ready = true;
      },
      setScale: (u, key) => {
        if (key === "x") check(u);
      },
      setData: check,
    },
  };
}
