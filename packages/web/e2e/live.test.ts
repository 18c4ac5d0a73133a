import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, launchBrowser, login, newPage, type RunningApp, startApp } from "./harness.ts";

// Waits are generous upper bounds for slow machines, not speed assertions (DESIGN §7).
const WAIT = { timeout: 15_000 };

let app: RunningApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  app = await startApp({ feed: "simulator" });
  browser = await launchBrowser();
  page = await newPage(browser);
  await login(page, app.url, ADMIN.username, ADMIN.password);
  await page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']").waitFor();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** Every spread cell's text, in table order. */
function spreadTexts(): Promise<string[]> {
  return page
    .locator("tr[data-symbol] [data-col='spread']")
    .evaluateAll((cells) => cells.map((c) => c.textContent ?? ""));
}

describe("dashboard with the simulator", () => {
  it("says the stream is live", async () => {
    await page.locator("[data-stream='live']").waitFor(WAIT);
    expect(await page.getByRole("status").textContent()).toBe("Live");
  });

  it("updates spreads as quotes arrive", async () => {
    const before = await spreadTexts();
    expect(before.filter((t) => t !== "—")).toHaveLength(before.length);
    await page.waitForFunction(
      (initial) => {
        const now = [...document.querySelectorAll("tr[data-symbol] [data-col='spread']")].map(
          (c) => c.textContent ?? "",
        );
        return now.some((text, i) => text !== initial[i]);
      },
      before,
      WAIT,
    );
  });

  it("flashes a spread cell that moved", async () => {
    const flashing = page.locator("[data-col='spread'][data-highlight]").first();
    await flashing.waitFor(WAIT);
    expect(await flashing.getAttribute("class")).toMatch(/highlight-(increase|decrease)/);
  });

  it("keeps the raw prices fresh", async () => {
    const stale = await page
      .locator("tr[data-key]")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-stale")));
    expect(stale).toEqual(Array(10).fill("false"));
  });
});

describe("the source line with the simulator", () => {
  it("names the simulator as the one live source", async () => {
    const simulator = page
      .getByRole("list", { name: "Price sources" })
      .locator("[data-provider='simulator'][data-state='live']");
    await simulator.waitFor(WAIT);
    expect(await simulator.textContent()).toMatch(/^Simulator · live · \d+ s ago$/);
    expect(await page.locator(".source-line li").count()).toBe(1);
    expect(await page.locator("tr[data-key] .price-tag").count()).toBe(0);
  });
});
