/** The chart's canvas colours, read from the theme's CSS variables when the chart is built. */
export interface ChartColors {
  text: string;
  axis: string;
  grid: string;
  line: string;
  up: string;
  down: string;
  zero: string;
  /** The σ bands' translucent fill. */
  band: string;
  font: string;
}

export function readChartColors(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: v("--text", "#17202b"),
    axis: v("--text-muted", "#5d6978"),
    grid: v("--border", "#d8dde3"),
    line: v("--accent", "#1d5fc2"),
    up: v("--positive", "#0b7a3e"),
    down: v("--negative", "#c4262e"),
    zero: v("--text-muted", "#5d6978"),
    band: v("--chart-band", "rgba(29, 95, 194, 0.08)"),
    font: v("--font-num", "monospace"),
  };
}
