import type { ReactNode } from "react";

/**
 * A table that may scroll sideways on a narrow screen, reachable by keyboard: focusable and named,
 * so arrow keys scroll it (axe's scrollable-region-focusable; WCAG 2.1.1).
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard
    <section className="panel__scroll" tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}
