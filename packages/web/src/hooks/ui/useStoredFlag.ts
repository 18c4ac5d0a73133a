import { useCallback, useSyncExternalStore } from "react";

const listeners = new Set<() => void>();

function read(key: string): boolean {
  try {
    return localStorage.getItem(key) === "true";
  } catch {
    return false;
  }
}

/**
 * An on/off preference kept in localStorage, shared by every component that reads the same key
 * (the toolbar's switch and the alert watcher see one value).
 */
export function useStoredFlag(key: string): [boolean, (value: boolean) => void] {
  const value = useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    () => read(key),
  );
  const set = useCallback(
    (next: boolean) => {
      try {
        localStorage.setItem(key, String(next));
      } catch {
        // Storage refused (private mode): the switch still works for this page's life.
      }
      for (const listener of listeners) listener();
    },
    [key],
  );
  return [value, set];
}

/** Alert sounds off; the notification still shows. */
export const MUTE_KEY = "spreadwatch.alertSoundsMuted";
/** System notifications while the tab is hidden; permission is asked when this is switched on. */
export const NOTIFY_HIDDEN_KEY = "spreadwatch.notifyWhenHidden";
