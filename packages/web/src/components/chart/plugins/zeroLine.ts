import uPlot from "uplot";

/** The dashed line at 0 (docs/spec.md §2), under the series, over the grid. */
export function zeroLinePlugin(color: string): uPlot.Plugin {
  return {
    hooks: {
      drawAxes: (u) => {
        const y = Math.round(u.valToPos(0, "y", true));
        const { left, top, width, height } = u.bbox;
        if (!(y >= top && y <= top + height)) return;
        const px = uPlot.pxRatio;
        const ctx = u.ctx;
        ctx.save();
        ctx.strokeStyle = color;
        ctx.lineWidth = px;
        ctx.setLineDash([6 * px, 4 * px]);
        ctx.beginPath();
        ctx.moveTo(left, y + 0.5);
        ctx.lineTo(left + width, y + 0.5);
        ctx.stroke();
        ctx.restore();
      },
    },
  };
}
