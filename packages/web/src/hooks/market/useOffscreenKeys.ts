import { type RefObject, useEffect, useState } from "react";

/** A row this far (in screens) above or below the box's view already counts as shown. */
const SHOWN_MARGIN = "50% 0px";
/** Rows coming into view are asked for at most this often while the page scrolls. */
const REVEAL_MS = 300;
/** Rows leaving view are left out only after this long, so scrolling back and forth is quiet. */
const SETTLE_MS = 5_000;

/**
 * The instrument keys whose rows (`data-stream-key`) are in `box` but out of its view, sorted;
 * undefined until a row has been seen. Keys in `always` never count as off screen. Rows coming
 * into view drop out of the list within REVEAL_MS, rows leaving it join after SETTLE_MS (each
 * change opens a new stream connection: docs/decisions.md "What the dashboard's stream carries").
 */
export function useOffscreenKeys(
  box: RefObject<HTMLElement | null>,
  always: readonly string[],
): readonly string[] | undefined {
  const [offscreen, setOffscreen] = useState<readonly string[]>();
  const alwaysId = always.join(" ");
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    const keep = new Set(alwaysId.split(" "));
    const inView = new Map<string, boolean>();
    let applied: readonly string[] | undefined;
    let appliedAt = 0;
    let due = Number.POSITIVE_INFINITY;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const offNow = () =>
      [...inView]
        .filter(([key, shown]) => !shown && !keep.has(key))
        .map(([key]) => key)
        .sort();
    const apply = () => {
      due = Number.POSITIVE_INFINITY;
      const next = offNow();
      if (applied && next.join(" ") === applied.join(" ")) return;
      applied = next;
      appliedAt = Date.now();
      setOffscreen(next);
    };
    const applyAt = (at: number) => {
      if (at >= due) return;
      clearTimeout(timer);
      due = at;
      timer = setTimeout(apply, Math.max(0, at - Date.now()));
    };
    const changed = () => {
      if (applied === undefined) return apply();
      const off = new Set(offNow());
      if (applied.some((key) => !off.has(key))) applyAt(appliedAt + REVEAL_MS);
      else if (off.size > applied.length) applyAt(Date.now() + SETTLE_MS);
    };

    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const key = (entry.target as HTMLElement).dataset.streamKey;
          if (key) inView.set(key, entry.isIntersecting);
        }
        changed();
      },
      { root, rootMargin: SHOWN_MARGIN },
    );
    // Rows come and go with the market (an instrument added or removed): watch each new one.
    const watched = new Set<HTMLElement>();
    const scan = () => {
      for (const row of root.querySelectorAll<HTMLElement>("[data-stream-key]")) {
        if (watched.has(row)) continue;
        watched.add(row);
        observer.observe(row);
      }
      for (const row of watched) {
        if (row.isConnected) continue;
        watched.delete(row);
        observer.unobserve(row);
        if (row.dataset.streamKey) inView.delete(row.dataset.streamKey);
      }
    };
    scan();
    const mutations = new MutationObserver(scan);
    mutations.observe(root, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      mutations.disconnect();
      clearTimeout(timer);
    };
  }, [box, alwaysId]);
  return offscreen;
}
