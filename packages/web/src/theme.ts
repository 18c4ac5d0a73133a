export type Theme = "light" | "dark";

/** Shared with the inline script in index.html, which loads the preference before first paint. */
export const DARK_MODE_KEY = "darkMode";
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * The theme in force. index.html picked it before the first paint (local storage, then the
 * cookie, then the OS preference, which it saved), so the DOM is the source of truth here.
 */
export function isDarkMode(): boolean {
  return document.documentElement.dataset.theme === "dark";
}

/** Applies and saves the preference as text "true"/"false" in local storage and a cookie. */
export function saveDarkMode(dark: boolean): void {
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  const value = String(dark);
  try {
    localStorage.setItem(DARK_MODE_KEY, value);
  } catch {
    // Storage disabled: the cookie still carries the preference.
  }
  // biome-ignore lint/suspicious/noDocumentCookie: one plain cookie; Cookie Store API is not everywhere yet
  document.cookie = `${DARK_MODE_KEY}=${value}; max-age=${ONE_YEAR_SECONDS}; path=/; SameSite=Lax`;
}
