export type Theme = "light" | "dark";

const DARK_QUERY = "(prefers-color-scheme: dark)";

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

/**
 * Until the profile screen brings a stored preference, the OS decides. The CSS keys its colours
 * off `data-theme` rather than the media query so a user's choice can later override the OS.
 */
export function followSystemTheme(): () => void {
  const query = matchMedia(DARK_QUERY);
  const sync = () => applyTheme(query.matches ? "dark" : "light");
  sync();
  query.addEventListener("change", sync);
  return () => query.removeEventListener("change", sync);
}
