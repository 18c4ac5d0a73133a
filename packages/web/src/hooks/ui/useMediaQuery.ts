import { useSyncExternalStore } from "react";

/** Whether a CSS media query matches now, following changes (rotation, resizing). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
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
