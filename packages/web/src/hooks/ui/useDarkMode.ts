import { useState } from "react";
import { isDarkMode, saveDarkMode } from "../../theme.ts";

/** The dark-mode switch's state; toggling flips the theme and saves it (docs/spec.md §4). */
export function useDarkMode(): { dark: boolean; toggle: () => void } {
  const [dark, setDark] = useState(isDarkMode);
  const toggle = () => {
    saveDarkMode(!dark);
    setDark(!dark);
  };
  return { dark, toggle };
}
