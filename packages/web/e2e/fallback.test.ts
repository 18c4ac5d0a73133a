import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, launchBrowser, login, newPage, type RunningApp, startApp } from "./harness.ts";

// Waits are generous upper bounds for slow machines, not speed assertions (DESIGN §7).
const WAIT = { timeout: 20_000 };
const STREAM = /\/api\/trpc\/market\.onSnapshot/;

let app: RunningApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  app = await startApp({ feed: "simulator" });
  browser = await launchBrowser();
  page = await newPage(browser);
  // The live stream cannot connect: the page must fall back to polling.
  await page.route(STREAM, (route) => route.abort());
  await login(page, app.url, ADMIN.username, ADMIN.password);
  await page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']").waitFor();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

function spreadTexts(): Promise<string[]> {
  return page
    .locator("tr[data-symbol] [data-col='spread']")
    .evaluateAll((cells) => cells.map((c) => c.textContent ?? ""));
}

describe("dashboard while the live stream is down", () => {
  it("says it is polling", async () => {
    const status = page.locator("[data-stream='interrupted']");
    await status.waitFor(WAIT);
    expect(await status.textContent()).toBe("Live stream interrupted — polling every 2 s");
  });

  it("keeps the spreads moving by polling", async () => {
    const before = await spreadTexts();
    await page.waitForFunction(
      (initial) =>
        [...document.querySelectorAll("tr[data-symbol] [data-col='spread']")].some(
          (c, i) => c.textContent !== initial[i],
        ),
      before,
      WAIT,
    );
  });

  it("goes live again once the stream is back", async () => {
    await page.unroute(STREAM);
    await page.locator("[data-stream='live']").waitFor(WAIT);
  });
});
