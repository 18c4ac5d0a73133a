import { type HighlightDirection, type HighlightState, nextHighlight } from "@spreadwatch/core";
import { useEffect, useRef, useState } from "react";

interface ShownHighlight {
  direction: HighlightDirection;
  until: number;
}

/**
 * The highlight (increase/decrease) a cell shows for `value` right now, per docs/spec.md §4. The rule's
 * state lives in a ref because most updates change nothing visible; only starting or ending a
 * highlight re-renders.
 */
export function useHighlight(value: number | undefined): HighlightDirection | undefined {
  const rule = useRef<HighlightState>({});
  const [shown, setShown] = useState<ShownHighlight>();

  useEffect(() => {
    const previous = rule.current;
    const next = nextHighlight(previous, value, Date.now());
    rule.current = next;
    if (next.lastHighlightAt !== previous.lastHighlightAt && next.direction && next.until) {
      setShown({ direction: next.direction, until: next.until });
    }
  }, [value]);

  // A separate effect so that later values (which re-run the one above) do not cancel the timer.
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => setShown(undefined), Math.max(0, shown.until - Date.now()));
    return () => clearTimeout(timer);
  }, [shown]);

  return shown?.direction;
}
