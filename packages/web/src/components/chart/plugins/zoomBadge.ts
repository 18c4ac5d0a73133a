import type uPlot from "uplot";
import { ZOOM_MODE_TEXT, zoomRegionAt } from "../zoomRegion.ts";

/**
 * The transient zoom-mode badge (docs/spec.md §2): while the pointer is over the chart it says what
 * the wheel would zoom there; it goes when the pointer leaves.
 */
export function zoomBadgePlugin(): uPlot.Plugin {
  const badge = document.createElement("div");
  badge.className = "chart-badge";
  badge.setAttribute("aria-live", "polite");
  badge.hidden = true;
  return {
    hooks: {
      init: (u) => {
        u.over.append(badge);
      },
      ready: (u) => {
        u.root.addEventListener("pointermove", (e) => {
          const region = zoomRegionAt(u, e.clientX, e.clientY);
          badge.hidden = region === undefined;
          if (region) badge.textContent = ZOOM_MODE_TEXT[region];
        });
        u.root.addEventListener("pointerleave", () => {
          badge.hidden = true;
        });
      },
    },
  };
}
