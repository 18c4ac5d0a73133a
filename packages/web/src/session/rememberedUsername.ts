/** The last username that signed in, kept for the browser session only (docs/spec.md §3). */
const KEY = "username";

export function rememberedUsername(): string {
  try {
    return sessionStorage.getItem(KEY) ?? "";
  } catch {
    return "";
  }
}

export function rememberUsername(username: string): void {
  try {
    sessionStorage.setItem(KEY, username);
  } catch {
    // Storage disabled: the field just starts empty next time.
  }
}
