import { useEffect, useState } from "react";

/** Success messages clear themselves after 3 s (docs/spec.md §8); errors stay until the next action. */
const SUCCESS_SHOWN_MS = 3_000;

export interface Flash {
  success: string | undefined;
  error: string | undefined;
  showSuccess(message: string): void;
  showError(message: string): void;
  clear(): void;
}

export function useFlash(): Flash {
  // A fresh object per message, so the same text shown twice restarts its 3 s.
  const [success, setSuccess] = useState<{ text: string }>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (success === undefined) return;
    const timer = setTimeout(() => setSuccess(undefined), SUCCESS_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [success]);

  return {
    success: success?.text,
    error,
    showSuccess(message) {
      setError(undefined);
      setSuccess({ text: message });
    },
    showError(message) {
      setSuccess(undefined);
      setError(message);
    },
    clear() {
      setSuccess(undefined);
      setError(undefined);
    },
  };
}
