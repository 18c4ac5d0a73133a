import { useEffect, useState } from "react";

/** The current time, refreshed every `intervalMs`, so age-based marks (stale rows) update on their own. */
export function useNow(intervalMs = 1_000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}
