import uPlot from "uplot";
import { CLOSE, HIGH, LOW, OPEN } from "../view.ts";

export interface CandlesOptions {
  /** Length of one candle in x units (ms), which sets the body width. */
  candleMs: number;
  up: string;
  down: string;
}

const BODY_SHARE = 0.7;
const MAX_BODY_CSS_PX = 24;

/**
 * Draws OHLC candles in the draw hook (the uPlot candlestick demo's way) and hides the line
 * it replaces. Up candles (close ≥ open) and down candles are collected into one path each, so
 * thousands of candles cost two fills rather than one per candle.
 */
export function candlesPlugin({ candleMs, up, down }: CandlesOptions): uPlot.Plugin {
  return {
    opts: (_u, opts) => {
      opts.cursor = { ...opts.cursor, points: { show: false } };
      const line = opts.series[CLOSE];
      if (line) {
        line.paths = () => null;
        line.points = { show: false };
      }
    },
    hooks: {
      draw: (u) => {
        const time = u.data[0];
        const open = u.data[OPEN];
        const high = u.data[HIGH];
        const low = u.data[LOW];
        const close = u.data[CLOSE];
        const xs = u.scales.x;
        if (!open || !high || !low || !close || xs?.min == null || xs.max == null) return;
        const { left, top, width, height } = u.bbox;
        const px = uPlot.pxRatio;
        const slot = (candleMs * width) / (xs.max - xs.min);
        const body = Math.max(px, Math.min(slot * BODY_SHARE, MAX_BODY_CSS_PX * px));
        const wick = Math.max(1, Math.round(px));
        const upPath = new Path2D();
        const downPath = new Path2D();
        const [i0, i1] = visible(u, time.length);
        for (let i = i0; i <= i1; i++) {
          const o = open[i];
          const h = high[i];
          const l = low[i];
          const c = close[i];
          if (o == null || h == null || l == null || c == null) continue;
          const x = u.valToPos(time[i] as number, "x", true);
          const yo = u.valToPos(o, "y", true);
          const yc = u.valToPos(c, "y", true);
          const yh = u.valToPos(h, "y", true);
          const yl = u.valToPos(l, "y", true);
          const path = c >= o ? upPath : downPath;
          path.rect(
            Math.round(x - wick / 2),
            Math.round(yh),
            wick,
            Math.max(1, Math.round(yl - yh)),
          );
          if (body > wick) {
            const bodyTop = Math.min(yo, yc);
            path.rect(
              Math.round(x - body / 2),
              Math.round(bodyTop),
              Math.round(body),
              Math.max(wick, Math.round(Math.abs(yc - yo))),
            );
          }
        }
        const ctx = u.ctx;
        ctx.save();
        ctx.beginPath();
        ctx.rect(left, top, width, height);
        ctx.clip();
        ctx.fillStyle = up;
        ctx.fill(upPath);
        ctx.fillStyle = down;
        ctx.fill(downPath);
        ctx.restore();
      },
    },
  };
}

/** The data indexes in view, plus one either side, whose candles may reach into it. */
function visible(u: uPlot, n: number): [number, number] {
  const [i0, i1] = u.series[0]?.idxs ?? [0, n - 1];
  return [Math.max(0, (i0 ?? 0) - 1), Math.min(n - 1, (i1 ?? n - 1) + 1)];
}
