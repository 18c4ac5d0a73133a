import { type RefObject, useEffect } from "react";

/**
 * Keeps `--chart-top` on the element at its distance from the top of the page, so chart.css
 * can make it fill the phone's screen below the controls: `calc(100dvh - var(--chart-top))`.
 * CSS alone cannot know the top, since the header and the controls wrap to the width. The
 * screen's own box is watched, so a banner or a re-wrap above the chart moves it too.
 */
export function useFillBelow(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = ref.current;
    const screen = element?.parentElement;
    if (!element || !screen) return;
    const measure = () => {
      const top = element.getBoundingClientRect().top + window.scrollY;
      const value = `${Math.round(top)}px`;
      // Unchanged tops are not written back, so the observer's next round ends the loop.
      if (element.style.getPropertyValue("--chart-top") !== value) {
        element.style.setProperty("--chart-top", value);
      }
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(screen);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, [ref]);
}
