import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { addAlertButton } from "./alerts.ts";
import { ADMIN, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";
import { widestFixture } from "./widest-fixture.ts";

// The dashboard's tables at the widths of desktops, laptops, tablets and phones on their side,
// down to the phone layout (480 px, phone.test.ts): every column of every
// table shows, none scrolls sideways inside its panel (at 1280 the Spread table's Alerts column
// was cut off once the z and Net / lot columns came). With the widest values a row can show
// (widest-fixture.ts), not the simulator's of the day.
const WIDTHS = [1920, 1440, 1280, 1220, 1100, 1024, 768, 667, 600, 568, 500, 481];

const suite = signedInSuite({
  app: () => startApp(widestFixture()),
  as: ADMIN,
  waitFor: (page) => addAlertButton(page, "GC_BUY"),
});

/** Each dashboard table whose content is wider than the box it sits in, with both widths. */
function clippedTables(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLTableElement>("table[aria-label]")]
      .filter((table) => table.scrollWidth > (table.parentElement?.clientWidth ?? 0) + 1)
      .map(
        (table) =>
          `${table.getAttribute("aria-label")}: ${table.scrollWidth} in ${table.parentElement?.clientWidth}`,
      ),
  );
}

describe("the dashboard's tables", () => {
  it.each(WIDTHS)("show every column at %i px", async (width) => {
    const { page } = suite;
    await page.setViewportSize({ width, height: 900 });
    await page.locator("tr[data-symbol='GC_BUY'] [data-col='net-per-lot']").waitFor();
    await expect.poll(() => clippedTables(page)).toEqual([]);
    // The last column of the Spread table, its alert buttons, is inside the window.
    const button = await addAlertButton(page, "CL_SELL").boundingBox();
    expect(button && button.x + button.width).toBeLessThanOrEqual(width);
  });
});
