import { useCallback, useRef } from "react";

/** 128 random bits as hex: `getRandomValues` works on plain http too, where `randomUUID` does not. */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The idempotency key of a form's submission. A double click, or a retry after a lost answer,
 * sends the same contents and so the same key, and the server creates once; changed contents
 * are a new request with a new key. `done` after a success, so the next submission is new too.
 */
export function useSubmissionKey() {
  const last = useRef<{ contents: string; key: string } | undefined>(undefined);
  const keyFor = useCallback((contents: unknown): string => {
    const text = JSON.stringify(contents);
    if (last.current?.contents !== text) last.current = { contents: text, key: newKey() };
    return last.current.key;
  }, []);
  const done = useCallback(() => {
    last.current = undefined;
  }, []);
  return { keyFor, done };
}
