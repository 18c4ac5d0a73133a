import { useSyncExternalStore } from "react";

// One list per query: a MediaQueryList's `matches` is live, and a table's rows ask on every render.
const lists = new Map<string, MediaQueryList>();

function mediaQueryList(query: string): MediaQueryList {
  let list = lists.get(query);
  if (!list) {
    list = window.matchMedia(query);
    lists.set(query, list);
  }
  return list;
}

/** Whether a CSS media query matches now, following changes (rotation, resizing). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = mediaQueryList(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => mediaQueryList(query).matches,
  );
}

/**
 * Phones (≤ 480 px) and screens without hover: a row's details come from a tap into a bottom
 * sheet, since hover tooltips cannot be reached there. Matches the compact table's CSS breakpoint.
 */
export const TAP_FOR_DETAILS = "(max-width: 480px), (hover: none)";

export function useTapForDetails(): boolean {
  return useMediaQuery(TAP_FOR_DETAILS);
}
