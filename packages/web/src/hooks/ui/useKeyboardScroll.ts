import { type RefObject, useEffect } from "react";

/** How far each key moves, as a browser scrolls a page: a line, or a screen less a little. */
function distance(key: string, box: HTMLElement): number | "top" | "bottom" | undefined {
  const screen = box.clientHeight * 0.9;
  switch (key) {
    case "ArrowDown":
      return 40;
    case "ArrowUp":
      return -40;
    case "PageDown":
    case " ":
      return screen;
    case "PageUp":
      return -screen;
    case "Home":
      return "top";
    case "End":
      return "bottom";
    default:
      return undefined;
  }
}

/**
 * The dashboard scrolls in its own box (so the toast strip never covers a table), and a browser
 * sends PageDown, Space and the arrows to the document while nothing has focus: they would do
 * nothing. With focus on nothing (the page body), those keys scroll `box` instead; with focus on
 * a control they keep their own meaning.
 */
export function useKeyboardScroll(box: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const element = box.current;
      if (!element || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey)
        return;
      if (document.activeElement !== document.body && document.activeElement !== null) return;
      const by = distance(event.key, element);
      if (by === undefined) return;
      event.preventDefault();
      if (by === "top") element.scrollTo({ top: 0 });
      else if (by === "bottom") element.scrollTo({ top: element.scrollHeight });
      else element.scrollBy({ top: event.shiftKey && event.key === " " ? -by : by });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [box]);
}
