import { formatNumber, formatSigned } from "@spreadwatch/core";
import type { CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { a11yReplayCsv, seedAlerts } from "./a11y-fixture.ts";
import { modal, rest, spreadRow, thresholdInput } from "./alerts.ts";
import { contrast } from "./contrast.ts";
import { answerNextDialog } from "./dialogs.ts";
import { signIn, startApp } from "./harness.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedOutSuite } from "./suite.ts";

/**
 * What axe cannot see: the keyboard reaches every pointer action (z details, a price level on
 * the chart), focus comes back to the control that opened a dialog, the focus ring stands out,
 * the chart's labels are readable over the candles, and a long-pressed price is the one the
 * axis shows under the finger.
 */
const TRADER = { username: "trader", password: "trader-secret", alerts_enabled: true };

const suite = signedOutSuite({
  app: () => startApp({ feed: "replay", replayCsv: a11yReplayCsv() }),
  users: [TRADER],
  page: false,
});

// Every describe sees GC_BUY's alerts at 120 (on) and 135 (off), whichever runs alone.
beforeAll(async () => {
  const page = await openPage(suite.browser);
  await signIn(page, suite.app.url, TRADER.username, TRADER.password);
  await seedAlerts(page);
  await closePage(page);
});

/** Presses Tab until the focused element matches `selector` (at most `limit` times). */
async function tabTo(page: Page, selector: string, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** The focused element, described well enough to compare: its tag, classes and name. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    return `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} ${el.getAttribute("aria-label") ?? el.textContent?.trim() ?? ""}`;
  });
}

function describeEl(page: Page, selector: string): Promise<string> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      return `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} ${el.getAttribute("aria-label") ?? el.textContent?.trim() ?? ""}`;
    });
}

/**
 * The focus indicator of the focused element and the colour around it: the outline if it has
 * one, else the outermost box-shadow ring; around it, the first opaque background outwards.
 */
function focusRing(page: Page): Promise<{ ring: string; around: string }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    let ring = "";
    if (style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0) {
      ring = style.outlineColor;
    } else {
      const colours = style.boxShadow.match(/rgba?\([^)]+\)/g) ?? [];
      ring = colours.at(-1) ?? "";
    }
    let around = "rgb(255, 255, 255)";
    for (let node = el.parentElement; node; node = node.parentElement) {
      const bg = getComputedStyle(node).backgroundColor;
      if (bg && !/rgba\(.*, 0\)$/.test(bg) && bg !== "transparent") {
        around = bg;
        break;
      }
    }
    return { ring, around };
  });
}

describe("on a desktop (1400 px, keyboard)", () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPage(suite.browser, { width: 1400, height: 900 });
    await signIn(page, suite.app.url, TRADER.username, TRADER.password);
    await spreadRow(page, "GC_BUY").locator("button.bell[data-alert-id]").first().waitFor();
  });
  afterAll(async () => {
    await closePage(page);
  });

  it("draws a focus ring of at least 3:1 against its surroundings, light and dark", async () => {
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate((s) => document.documentElement.setAttribute("data-theme", s), scheme);
      await page.locator("body").focus();
      for (const selector of [
        "button.button",
        "tr[data-symbol='GC_BUY'] button.bell",
        "tr[data-symbol='GC_BUY'] button[aria-label='Add new alert']",
      ]) {
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.locator("body").click({ position: { x: 1, y: 1 } });
        await tabTo(page, selector);
        const { ring, around } = await focusRing(page);
        expect(ring, `${selector} (${scheme}) has no focus ring`).not.toBe("");
        expect(
          contrast(ring, around),
          `${selector} (${scheme}): ring ${ring} on ${around}`,
        ).toBeGreaterThanOrEqual(3);
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.evaluate(() => document.documentElement.setAttribute("data-theme", "light"));
  });

  it("reaches the z breakdown by keyboard: percentile, mean and σ", async () => {
    await page.locator("body").click({ position: { x: 1, y: 1 } });
    await tabTo(page, "tr[data-symbol='GC_BUY'] [data-col='z'] button");
    const stats = (await rest(page, "GET", "/api/spread-stats/GC_BUY")).json as Record<
      string,
      number
    >;
    const tooltip = page.getByRole("tooltip");
    await tooltip.waitFor();
    const text = await tooltip.textContent();
    expect(text).toContain(`percentile ${formatNumber(stats.percentile, 1)}`);
    expect(text).toContain(`mean ${formatNumber(stats.mean, 2)}`);
    expect(text).toContain(`σ ${formatNumber(stats.std, 2)}`);
    // Its name starts with what it shows, so speech input ("click plus one point two") finds it.
    const button = spreadRow(page, "GC_BUY").locator("[data-col='z'] button");
    expect(await button.textContent()).toBe(formatSigned(stats.z, 2));
  });

  it("gives focus back to the + that opened the alert modal (Escape and Cancel)", async () => {
    const opener = "tr[data-symbol='GC_BUY'] button[aria-label='Add new alert']";
    const expected = await describeEl(page, opener);
    for (const close of ["Escape", "Cancel"] as const) {
      await page.locator(opener).focus();
      await page.keyboard.press("Enter");
      await thresholdInput(page).waitFor();
      if (close === "Escape") await page.keyboard.press("Escape");
      else await modal(page).getByRole("button", { name: "Cancel" }).click();
      await modal(page).waitFor({ state: "detached" });
      await expect.poll(() => focused(page), { message: close }).toBe(expected);
    }
  });

  it("gives focus back to the bell after an edit is saved", async () => {
    const bell = spreadRow(page, "GC_BUY").locator("button.bell[data-alert-id]").first();
    const expected = await bell.evaluate(
      (el) =>
        `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} ${el.getAttribute("aria-label") ?? el.textContent?.trim() ?? ""}`,
    );
    await bell.focus();
    await page.keyboard.press("Enter");
    await thresholdInput(page).waitFor();
    await modal(page).getByRole("button", { name: "Update Alert" }).click();
    await modal(page).waitFor({ state: "detached" });
    await expect.poll(() => focused(page)).toBe(expected);
  });

  it("keeps focus in the row when the alert whose bell opened the modal is deleted", async () => {
    // Made here, not over REST, so the page holds it without a reload.
    await spreadRow(page, "GC_SELL").getByRole("button", { name: "Add new alert" }).click();
    await thresholdInput(page).fill("90");
    await modal(page).getByRole("button", { name: "Create Alert" }).click();
    await modal(page).waitFor({ state: "detached" });
    const bell = spreadRow(page, "GC_SELL").locator("button.bell[data-alert-id]");
    await bell.focus();
    await page.keyboard.press("Enter");
    await thresholdInput(page).waitFor();
    const confirmed = answerNextDialog(page, true);
    await modal(page).getByRole("button", { name: "Delete", exact: true }).click();
    expect(await confirmed).toBe("Are you sure you want to delete this alert?");
    await modal(page).waitFor({ state: "detached" });
    await bell.waitFor({ state: "detached" });
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.closest("tr")?.getAttribute("data-symbol")),
      )
      .toBe("GC_SELL");
  });
});

describe("the chart by keyboard (1400 px)", () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPage(suite.browser, { width: 1400, height: 900 });
    await signIn(page, suite.app.url, TRADER.username, TRADER.password);
    await page.goto(`${suite.app.url}/advanced-chart`);
    await page.getByLabel("Timeframe").selectOption("1m");
    await page.waitForFunction(() => (window.__spreadChart?.data[0].length ?? 0) > 30);
    await page.locator(".chart-threshold").first().waitFor();
  });
  afterAll(async () => {
    await closePage(page);
  });

  it("picks a price with the arrow keys and creates an alert there with Enter", async () => {
    await page.getByRole("button", { name: "Reset Zoom" }).focus();
    await tabTo(page, ".u-over");
    const tag = page.getByTestId("chart-cursor-value");
    await tag.waitFor();
    const first = await tag.textContent();
    for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowUp");
    await expect.poll(() => tag.textContent()).not.toBe(first);
    const level = (await tag.textContent()) ?? "";
    expect(Number(level)).toBeGreaterThan(Number(first));
    await page.keyboard.press("Enter");
    const offer = page.getByRole("button", { name: /^Create alert at / });
    await offer.waitFor();
    // At the latest candle, by the panel's right edge, yet whole inside the panel.
    const panel = await page.getByRole("region", { name: "Spread chart" }).boundingBox();
    const box = await page.getByTestId("chart-popover").boundingBox();
    if (!panel || !box) throw new Error("no panel or offer");
    expect(box.x).toBeGreaterThanOrEqual(panel.x);
    expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
    // The offer takes focus, at the price the axis shows.
    expect(await focused(page)).toMatch(/Create alert at/);
    expect(await offer.textContent()).toBe(`Create alert at ${formatNumber(Number(level), 2)}`);
    // Escape goes back to the chart, where the price still is.
    await page.keyboard.press("Escape");
    await offer.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.classList.contains("u-over"))).toBe(
      true,
    );
    await page.keyboard.press("Enter");
    await offer.waitFor();
    await page.keyboard.press("Enter");
    await thresholdInput(page).waitFor();
    expect(await thresholdInput(page).inputValue()).toBe(formatNumber(Number(level), 2));
    await page.keyboard.press("Escape");
    await modal(page).waitFor({ state: "detached" });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.classList.contains("u-over")))
      .toBe(true);
  });

  it("keeps the legend and alert labels on a solid background, readable", async () => {
    const labels = await page
      .locator(".chart-legend, .chart-threshold__label")
      .evaluateAll((elements) =>
        elements.map((el) => {
          let opacity = 1;
          for (let n: Element | null = el; n; n = n.parentElement) {
            opacity *= Number(getComputedStyle(n).opacity);
          }
          const style = getComputedStyle(el);
          return {
            text: el.textContent ?? "",
            background: style.backgroundColor,
            color: style.color,
            opacity,
          };
        }),
      );
    expect(labels.length).toBeGreaterThanOrEqual(3);
    for (const label of labels) {
      // Opaque: the candles and grid never show through the text.
      expect(label.background, label.text).toMatch(/^rgb\(/);
      expect(label.opacity, label.text).toBe(1);
      expect(contrast(label.color, label.background), label.text).toBeGreaterThanOrEqual(4.5);
    }
    expect(labels.map((l) => l.text)).toContain("Alert 135.00 (off)");
  });
});

describe("on a phone (390 px, touch)", () => {
  let page: Page;
  let cdp: CDPSession;
  beforeAll(async () => {
    const context = await suite.browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    page = await context.newPage();
    cdp = await context.newCDPSession(page);
    await signIn(page, suite.app.url, TRADER.username, TRADER.password);
    await spreadRow(page, "GC_BUY").waitFor();
  });
  afterAll(async () => {
    await closePage(page);
  });

  it("shows z, percentile, mean and σ in the row's details sheet", async () => {
    const stats = (await rest(page, "GET", "/api/spread-stats/GC_BUY")).json as Record<
      string,
      number
    >;
    await spreadRow(page, "GC_BUY").getByRole("button", { name: "GC_BUY" }).tap();
    const sheet = page.getByRole("dialog", { name: /GC_BUY/ });
    const z = sheet.locator("[data-field='z']");
    await z.waitFor();
    const fact = (label: string) =>
      z
        .locator("div")
        .filter({ has: page.locator("dt", { hasText: label }) })
        .locator("dd");
    expect(await fact("z").textContent()).toBe(formatSigned(stats.z, 2));
    expect(await fact("Percentile").textContent()).toBe(formatNumber(stats.percentile, 1));
    expect(await fact("Mean").textContent()).toBe(formatNumber(stats.mean, 2));
    expect(await fact("σ").textContent()).toBe(formatNumber(stats.std, 2));
    // Shown as σ: the labels' capitals must not turn it into Σ (a sum).
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, after text-transform, is what is checked
    expect(await z.locator("dt", { hasText: "σ" }).innerText()).toBe("σ");
    await page.keyboard.press("Escape");
    await sheet.waitFor({ state: "detached" });
  });

  it("gives focus back to the row when the modal opened from its sheet closes", async () => {
    const symbol = spreadRow(page, "GC_BUY").getByRole("button", { name: "GC_BUY" });
    await symbol.focus();
    await page.keyboard.press("Enter");
    const sheet = page.getByRole("dialog", { name: /GC_BUY/ });
    await sheet.getByRole("button", { name: "Add alert" }).focus();
    await page.keyboard.press("Enter");
    await thresholdInput(page).waitFor();
    await page.keyboard.press("Escape");
    await modal(page).waitFor({ state: "detached" });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe("GC_BUY");
  });

  it("offers the long-pressed price the axis shows under the finger", async () => {
    await page.goto(`${suite.app.url}/advanced-chart`);
    await page.getByLabel("Timeframe").selectOption("1m");
    await page.waitForFunction(() => (window.__spreadChart?.data[0].length ?? 0) > 30);
    const plot = await page.locator(".u-over").boundingBox();
    if (!plot) throw new Error("no plot");
    const offer = page.getByRole("button", { name: /^Create alert at / });
    const tag = page.getByTestId("chart-cursor-value");
    // Fingers land between pixels; each press must offer exactly the tag's price.
    for (const share of [0.3, 0.55, 0.71]) {
      const at = { x: plot.x + plot.width / 2, y: plot.y + plot.height * share + 0.37 };
      await cdp.send("Input.dispatchTouchEvent", {
        type: "touchStart",
        touchPoints: [{ x: at.x, y: at.y, id: 0 }],
      });
      await offer.waitFor();
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      const shown = Number(await tag.textContent());
      expect(await offer.textContent()).toBe(`Create alert at ${formatNumber(shown, 2)}`);
      await page.keyboard.press("Escape");
      await offer.waitFor({ state: "detached" });
    }
  });
});
