import { expect, it } from "vitest";
import { shiftClock } from "./shifted-clock.ts";
import { sharedBrowser } from "./suite.ts";

/**
 * `pnpm test:at` moves the pages' `Date` instead of Chromium's clock (shifted-clock.ts): a page
 * must see the moved now through every way the app reads it, and every other date unchanged.
 */
const DAYS_40 = 40 * 86_400_000;

it("a page on a moved clock reads now 40 days later, and any other date as it is", async () => {
  const context = await (await sharedBrowser()).newContext();
  try {
    await shiftClock(context, DAYS_40);
    const page = await context.newPage();
    await page.goto("about:blank");
    const before = Date.now();
    const seen = await page.evaluate(() => ({
      now: Date.now(),
      // biome-ignore lint/complexity/useDateNow: the constructor without arguments is under test
      constructed: new Date().getTime(),
      called: Date(),
      epoch: new Date(0).toISOString(),
      fields: new Date(2027, 0, 25, 18, 27).getTime() === new Date("2027-01-25T18:27").getTime(),
      isDate: new Date() instanceof Date,
      utc: Date.UTC(2028, 1, 29),
    }));
    const after = Date.now();
    for (const now of [seen.now, seen.constructed]) {
      expect(now).toBeGreaterThanOrEqual(before + DAYS_40);
      expect(now).toBeLessThanOrEqual(after + DAYS_40);
    }
    // Date() as a function: the moved now, to the second.
    expect(Date.parse(seen.called)).toBeGreaterThanOrEqual(before - 1000 + DAYS_40);
    expect(seen.epoch).toBe("1970-01-01T00:00:00.000Z");
    expect(seen.fields).toBe(true);
    expect(seen.isDate).toBe(true);
    expect(seen.utc).toBe(Date.parse("2028-02-29T00:00:00Z"));
  } finally {
    await context.close();
  }
});
