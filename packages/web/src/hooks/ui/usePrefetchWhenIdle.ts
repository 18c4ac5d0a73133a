import { useEffect } from "react";

/**
 * Fetches a screen's lazy dialogs once it has shown what it came for (`ready`), when the
 * browser is idle: the first paint does not wait for them, the first click does not either
 * (docs/decisions.md "What the first load carries"). Safari has no requestIdleCallback; a
 * zero timeout still yields to the paint.
 */
export function usePrefetchWhenIdle(ready: boolean, parts: readonly { preload: () => void }[]) {
  useEffect(() => {
    if (!ready) return;
    const run = () => {
      for (const part of parts) part.preload();
    };
    if (typeof requestIdleCallback === "function") {
      const id = requestIdleCallback(run, { timeout: 5_000 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(run, 0);
    return () => clearTimeout(id);
  }, [ready, parts]);
}
