/** Helpers for the dashboard tests. */
import type { Page } from "playwright-core";

/** Every spread cell's text, in table order. */
export function spreadTexts(page: Page): Promise<string[]> {
  return page
    .locator("tr[data-symbol] [data-col='spread']")
    .evaluateAll((cells) => cells.map((c) => c.textContent ?? ""));
}
