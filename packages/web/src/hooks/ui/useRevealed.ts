import { useEffect, useState } from "react";

/**
 * How many of `total` items to draw: `chunk` at first, then `chunk` more after each frame the
 * browser has drawn, until all are. A long table drawn this way is many short main-thread tasks
 * (each chunk's render and commit, then the frame's style, layout and paint) instead of one long
 * one (docs/backtest.md, "Sweeps"). Starts again from `chunk` when `of` changes (new data).
 */
export function useRevealed(total: number, chunk: number, of: unknown): number {
  const [state, setState] = useState({ of, shown: Math.min(total, chunk) });
  const shown = state.of === of ? state.shown : Math.min(total, chunk);
  useEffect(() => {
    let n = Math.min(total, chunk);
    setState({ of, shown: n });
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      if (n >= total) return;
      // After the frame that shows this chunk: a timeout queued from requestAnimationFrame runs
      // once that frame's rendering task is done, so no two chunks share a frame.
      frame = requestAnimationFrame(() => {
        timer = setTimeout(() => {
          n = Math.min(total, n + chunk);
          setState({ of, shown: n });
          next();
        }, 0);
      });
    };
    next();
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [total, chunk, of]);
  return shown;
}
