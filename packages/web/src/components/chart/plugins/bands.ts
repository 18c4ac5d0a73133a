import uPlot from "uplot";

export interface Bands {
  mean: number;
  std: number;
}

export interface BandsColors {
  fill: string;
  line: string;
}

/** Each band's edges: mean ± k·std for k = 2, then 1 (drawn outer first). */
export function bandEdges({ mean, std }: Bands): { k: number; low: number; high: number }[] {
  return [2, 1].map((k) => ({ k, low: mean - k * std, high: mean + k * std }));
}

/**
 * Mean ± 1σ and ± 2σ bands (docs/user-guide.md, "Advanced Spread Chart") under the series: two
 * translucent fills, the inner one drawn over the outer so it reads darker, and a dashed mean line.
 * Drawn in drawAxes so the spread line and the candles stay on top. `current` is read on every
 * draw, so turning the bands on or off is a redraw, not a rebuild that would lose the zoom.
 */
export function bandsPlugin(current: () => Bands | undefined, colors: BandsColors): uPlot.Plugin {
  return {
    hooks: {
      drawAxes: (u) => {
        const bands = current();
        if (!bands || !(bands.std >= 0)) return;
        const { left, top, width, height } = u.bbox;
        const ctx = u.ctx;
        const px = uPlot.pxRatio;
        ctx.save();
        ctx.beginPath();
        ctx.rect(left, top, width, height);
        ctx.clip();
        ctx.fillStyle = colors.fill;
        for (const { low, high } of bandEdges(bands)) {
          const y1 = u.valToPos(high, "y", true);
          const y2 = u.valToPos(low, "y", true);
          ctx.fillRect(left, y1, width, y2 - y1);
        }
        const y = Math.round(u.valToPos(bands.mean, "y", true)) + 0.5;
        ctx.strokeStyle = colors.line;
        ctx.lineWidth = px;
        ctx.setLineDash([2 * px, 3 * px]);
        ctx.beginPath();
        ctx.moveTo(left, y);
        ctx.lineTo(left + width, y);
        ctx.stroke();
        ctx.restore();
      },
    },
  };
}
