import type uPlot from "uplot";

/**
 * A definition's candles before its creation come from its legs' one-minute closes, not from
 * its own executable values (docs/user-guide.md "Spreads of your own"): the span up to `until` is
 * shaded and labelled "from leg closes". A DOM layer like the roll marks, so it reads (and tests)
 * as text; `current` is read on every draw, so it changes without a rebuild.
 */
export function legHistoryPlugin(current: () => number | undefined): uPlot.Plugin {
  const band = document.createElement("div");
  band.className = "chart-leg-history";
  const label = document.createElement("span");
  label.className = "chart-leg-history__label";
  label.textContent = "from leg closes";
  band.append(label);
  return {
    hooks: {
      init: (u) => {
        u.over.prepend(band);
      },
      draw: (u) => {
        const until = current();
        const width = u.over.clientWidth;
        const right = until === undefined ? Number.NaN : Math.round(u.valToPos(until, "x"));
        band.hidden = !(right > 0);
        if (band.hidden) return;
        band.dataset.until = String(until);
        band.style.width = `${Math.min(right, width)}px`;
        // The label keeps to the band's visible part; with its end off the left edge it is hidden.
        label.hidden = right < 24;
      },
    },
  };
}
