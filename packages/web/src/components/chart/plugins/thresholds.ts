import type uPlot from "uplot";

export interface ThresholdLine {
  id: number;
  value: number;
  /** The threshold as the alert list writes it, e.g. "100.00". */
  label: string;
  enabled: boolean;
}

/**
 * The user's alert thresholds for the shown symbol as horizontal lines across the plot, each
 * labelled with its threshold; dashed when the alert is disabled. DOM lines rather than canvas
 * strokes so they stay crisp and can be read (and tested) as text. `current` is read on every
 * draw, so a changed alert list is a redraw, not a rebuild.
 */
export function thresholdsPlugin(current: () => readonly ThresholdLine[]): uPlot.Plugin {
  const layer = document.createElement("div");
  layer.className = "chart-thresholds";
  return {
    hooks: {
      init: (u) => {
        u.over.append(layer);
      },
      draw: (u) => {
        const height = u.over.clientHeight;
        const rows = current().map((line) => {
          const y = u.valToPos(line.value, "y");
          const row = document.createElement("div");
          row.className = "chart-threshold";
          row.classList.toggle("chart-threshold--disabled", !line.enabled);
          row.dataset.threshold = String(line.value);
          row.hidden = !(y >= 0 && y <= height);
          row.style.transform = `translateY(${Math.round(y)}px)`;
          const label = document.createElement("span");
          label.className = "chart-threshold__label";
          label.textContent = line.enabled ? `Alert ${line.label}` : `Alert ${line.label} (off)`;
          row.append(label);
          return row;
        });
        layer.replaceChildren(...rows);
      },
    },
  };
}
