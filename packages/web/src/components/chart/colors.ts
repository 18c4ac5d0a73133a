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
    axis: v("--text-muted", "#56616f"),
    grid: v("--border", "#d8dde3"),
    line: v("--accent", "#1d5fc2"),
    up: v("--positive", "#096c36"),
    down: v("--negative", "#b42229"),
    zero: v("--text-muted", "#56616f"),
    band: v("--chart-band", "rgba(29, 95, 194, 0.08)"),
    font: v("--font-num", "monospace"),
  };
}
