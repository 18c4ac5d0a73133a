import { useSyncExternalStore } from "react";

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => observer.disconnect();
}

const currentTheme = () => document.documentElement.dataset.theme ?? "light";

/**
 * The `data-theme` attribute of <html>, kept current: whatever sets it (the profile's switch,
 * another screen, the console), components that paint with theme colours outside CSS — the
 * chart's canvas — repaint.
 */
export function useTheme(): string {
  return useSyncExternalStore(subscribe, currentTheme);
}
