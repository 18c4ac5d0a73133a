import { describe, expect, it } from "vitest";
import { A_DAY_OF_HISTORY, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

/**
 * The dashboard scrolls in its own box, above the toast strip. A keyboard user who has clicked
 * nothing (focus on the page body) still scrolls it with PageDown, Space, End and Home, as on any
 * page; a focused control keeps its keys.
 */
const TRADER = { username: "trader", password: "trader-secret", alerts_enabled: true };

const suite = signedInSuite({
  app: () => startApp({ feed: "simulator", env: A_DAY_OF_HISTORY }),
  users: [TRADER],
  as: TRADER,
  // Short enough that the dashboard's tables overflow its box at a desktop width.
  page: { width: 1400, height: 500 },
  waitFor: (page) => page.locator("tr[data-symbol='GC_BUY']"),
});

const scrollTop = () =>
  suite.page.locator(".page--dashboard").evaluate((box) => Math.round(box.scrollTop));

describe("keyboard scrolling of the dashboard", () => {
  it("PageDown, Space, End and Home scroll the dashboard's box while nothing has focus", async () => {
    const page = suite.page;
    const room = await page
      .locator(".page--dashboard")
      .evaluate((box) => box.scrollHeight - box.clientHeight);
    expect(room).toBeGreaterThan(100);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(await scrollTop()).toBe(0);

    await page.keyboard.press("PageDown");
    await expect.poll(scrollTop).toBeGreaterThan(0);
    const afterPageDown = await scrollTop();
    await page.keyboard.press("End");
    await expect.poll(scrollTop).toBe(room);
    await page.keyboard.press("Home");
    await expect.poll(scrollTop).toBe(0);
    await page.keyboard.press(" ");
    await expect.poll(scrollTop).toBe(afterPageDown);
  });

  it("a focused control keeps its keys: Space on a checkbox ticks it, the dashboard stays", async () => {
    const page = suite.page;
    await page.locator(".page--dashboard").evaluate((box) => box.scrollTo({ top: 0 }));
    const mute = page.getByLabel("Mute sounds");
    await mute.focus();
    const before = await mute.isChecked();
    await page.keyboard.press(" ");
    await expect.poll(() => mute.isChecked()).toBe(!before);
    expect(await scrollTop()).toBe(0);
  });
});
