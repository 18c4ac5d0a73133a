import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { addAlertButton, modal, popup, rest, spreadRow } from "./alerts.ts";
import { playedSounds, spyOnAudio } from "./audio-spy.ts";
import { GOLD_SWING, goldSwingCsv } from "./fixtures.ts";
import { startApp } from "./harness.ts";
import { fakeNotifications, notificationSpy, setHidden } from "./phone-spies.ts";
import { signedInSuite } from "./suite.ts";

// docs/user-guide.md "On a phone" and the chart on a phone: 390 × 844, touch. GC_BUY swings between
// +128.38 and +88.38 every 2 s (replay at speed 1), so a new alert at a level in between fires
// within a few seconds of the watcher learning its side. Waits are upper bounds.
const WAIT = { timeout: 30_000 };
const PHONE = { width: 390, height: 844 };
const PAM = { username: "pam", password: "pam-secret", alerts_enabled: true };

const suite = signedInSuite({
  app: () =>
    startApp({ feed: "replay", replayCsv: goldSwingCsv(Date.now() + 5_000, 900), replaySpeed: 1 }),
  users: [PAM],
  page: { ...PHONE, hasTouch: true },
  beforeLogin: async (page) => {
    await spyOnAudio(page);
    await fakeNotifications(page);
  },
  as: PAM,
  waitFor: (page) => addAlertButton(page, "GC_BUY"),
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error("not rendered");
  return found;
}

/** The part of the Spread table a trader can see: its box cut to the viewport and any scroller. */
function visibleTableBox(page: Page): Promise<Box> {
  return page.locator("table[aria-label='Spread']").evaluate((table) => {
    let { left, top, right, bottom } = table.getBoundingClientRect();
    for (let at = table.parentElement; at; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const clip = at.getBoundingClientRect();
      left = Math.max(left, clip.left);
      top = Math.max(top, clip.top);
      right = Math.min(right, clip.right);
      bottom = Math.min(bottom, clip.bottom);
    }
    bottom = Math.min(bottom, window.innerHeight);
    return { x: left, y: top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
  });
}

/** Every element that scrolls sideways: the document, or a box the page scrolls in. */
function sidewaysScrollers(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [document.documentElement, ...document.querySelectorAll("main, .page")]
      .filter((element) => element.scrollWidth > element.clientWidth)
      .map((element) => `${element.tagName}.${element.className}: ${element.scrollWidth}`),
  );
}

const toasts = () => popup(suite.page);
const sheet = () => suite.page.locator("dialog.sheet");

/** Creates an alert behind the page's back and reloads, so the watcher starts with it. */
async function alertAndReload(threshold: number, soundId = "bell"): Promise<void> {
  const created = await rest(suite.page, "POST", "/api/alerts", {
    commodityType: "GC_BUY",
    threshold,
    soundId,
  });
  expect(created.status).toBe(200);
  await suite.page.reload();
  await addAlertButton(suite.page, "SI_BUY").waitFor();
}

/** The toast of a firing of the GC_BUY alert at `threshold`, once it shows. */
async function toastAt(threshold: number): Promise<string> {
  const toast = toasts()
    .locator("[data-notification]")
    .filter({ hasText: `${threshold.toFixed(2)} ` })
    .first();
  await toast.waitFor(WAIT);
  return (await toast.locator(".notification__line").textContent()) ?? "";
}

describe("the dashboard on a phone", () => {
  it("never scrolls sideways, at 390 and at 360 px", async () => {
    expect(await sidewaysScrollers(suite.page)).toEqual([]);
    const table = await box(suite.page.locator("table[aria-label='Spread']"));
    expect(table.x + table.width).toBeLessThanOrEqual(PHONE.width);
    await suite.page.setViewportSize({ width: 360, height: 780 });
    try {
      expect(await sidewaysScrollers(suite.page)).toEqual([]);
      const narrow = await box(suite.page.locator("table[aria-label='Spread']"));
      expect(narrow.x + narrow.width).toBeLessThanOrEqual(360);
    } finally {
      await suite.page.setViewportSize(PHONE);
    }
  });

  it("keeps Symbol, Spread and Alerts in the table; CME and MCX move to the details", async () => {
    const headers = await suite.page
      .locator("table[aria-label='Spread'] thead th")
      .filter({ visible: true })
      .allTextContents();
    expect(headers).toEqual(["Symbol", "Spread", "Alerts"]);
  });

  it("opens a tapped row's details in a bottom sheet: parity, prices, Add alert", async () => {
    await spreadRow(suite.page, "GC_BUY").locator("[data-col='spread']").tap();
    await sheet().waitFor();
    expect(await sheet().getByRole("heading", { level: 2 }).textContent()).toBe(
      "Gold Buy · GC_BUY",
    );
    // GC_BUY sells CME at its bid, 2650.00, whichever way the MCX ask swings.
    expect(await sheet().locator("[data-field='parity']").textContent()).toBe(
      "CME 2650.000 × 0.32151 × USDINR 84.0000 × (1 + 6%) = parity 75861.62",
    );
    expect(await sheet().locator("dt").allTextContents()).toEqual([
      "Spread",
      "CME",
      "MCX",
      "Gross",
      "Costs",
      "Net",
      "Hedge",
    ]);
    expect(new URL(suite.page.url()).pathname).toBe("/");
    // The sheet sits at the bottom of the screen.
    const sheetBox = await box(sheet());
    expect(sheetBox.y + sheetBox.height).toBeGreaterThan(PHONE.height - 2);

    await sheet().getByRole("button", { name: "Add alert" }).tap();
    await modal(suite.page).getByRole("heading", { name: "Create Alert" }).waitFor();
    expect(await sheet().count()).toBe(0);
    await modal(suite.page).getByRole("button", { name: "Cancel" }).tap();
    await modal(suite.page).waitFor({ state: "detached" });
  });

  it("opens the chart from the sheet's Open chart", async () => {
    await spreadRow(suite.page, "SI_SELL").locator("th").tap();
    await sheet().getByRole("button", { name: "Open chart" }).tap();
    await suite.page.waitForURL(`${suite.app.url}/advanced-chart`);
    expect(
      await suite.page.getByLabel("Commodity").evaluate((s) => (s as HTMLSelectElement).value),
    ).toBe("SI_SELL");
    await suite.page.getByRole("link", { name: "Back to Dashboard" }).tap();
    await addAlertButton(suite.page, "GC_BUY").waitFor();
  });
});

describe("alert toasts on a phone", () => {
  it("say which way the spread crossed, in words and arrow, and play the sound", async () => {
    await alertAndReload(100);
    const line = await toastAt(100);
    const match = /^Gold Buy crossed (above|below) 100\.00 (⬆|⬇) — now (\d+\.\d\d)$/.exec(line);
    expect(match, line).not.toBeNull();
    const [, side, arrow, now] = match ?? [];
    expect(arrow).toBe(side === "above" ? "⬆" : "⬇");
    expect(now).toBe(side === "above" ? GOLD_SWING.high : GOLD_SWING.low);
    expect((await playedSounds(suite.page)).map((sound) => sound.src)).toContain(
      "/sounds/bell.wav",
    );
    // The row shows one bell with the count, not a bell per alert.
    const count = spreadRow(suite.page, "GC_BUY").locator("[data-alert-count]");
    expect(await count.getAttribute("data-alert-count")).toBe("1");
    expect(await spreadRow(suite.page, "GC_BUY").locator("button[data-alert-id]").count()).toBe(0);
  });

  it("never cover the Spread table, scrolled or not", async () => {
    expect(overlaps(await box(toasts()), await visibleTableBox(suite.page))).toBe(false);
    // The dashboard scrolls in its own box, header and all, above the toasts.
    const scroller = suite.page.locator(".page--dashboard");
    await scroller.evaluate((page) => page.scrollTo(0, page.scrollHeight));
    expect(await scroller.evaluate((page) => page.scrollTop)).toBeGreaterThan(0);
    expect(overlaps(await box(toasts()), await visibleTableBox(suite.page))).toBe(false);
    await scroller.evaluate((page) => page.scrollTo(0, 0));
  });

  it("never cover a modal, and sit under its backdrop", async () => {
    // Five firings, unfolded: the toasts now take a good part of the screen.
    for (const threshold of [101, 102, 103, 104]) {
      await rest(suite.page, "POST", "/api/alerts", { commodityType: "GC_BUY", threshold });
    }
    await suite.page.reload();
    await toasts()
      .getByRole("button", { name: /^\d+ more$/ })
      .tap(WAIT);
    expect(await toasts().locator("[data-notification]").count()).toBeGreaterThanOrEqual(4);
    await addAlertButton(suite.page, "SI_BUY").tap();
    const dialog = modal(suite.page);
    await dialog.waitFor();
    const toastBox = await box(toasts());
    expect(overlaps(toastBox, await box(dialog))).toBe(false);
    // What a tap on the toasts reaches while the modal is open: the modal's backdrop.
    const hit = await suite.page.evaluate(
      ({ x, y }) =>
        !!document.elementFromPoint(x, y)?.closest("[aria-label='Alert Notifications']"),
      { x: toastBox.x + toastBox.width / 2, y: toastBox.y + toastBox.height / 2 },
    );
    expect(hit).toBe(false);
    await dialog.getByRole("button", { name: "Cancel" }).tap();
    await dialog.waitFor({ state: "detached" });
  });

  it("stay off the Spread table on a desktop", async () => {
    await suite.page.setViewportSize({ width: 1400, height: 900 });
    try {
      expect(overlaps(await box(toasts()), await visibleTableBox(suite.page))).toBe(false);
      await suite.page.getByRole("button", { name: "Add new alert" }).first().click();
      expect(overlaps(await box(toasts()), await box(modal(suite.page)))).toBe(false);
      await modal(suite.page).getByRole("button", { name: "Cancel" }).click();
    } finally {
      await suite.page.setViewportSize(PHONE);
    }
  });

  it("fall silent with the mute switch, which the browser remembers", async () => {
    await suite.page.getByLabel("Mute sounds").tap();
    await alertAndReload(105, "chime");
    expect(await suite.page.getByLabel("Mute sounds").isChecked()).toBe(true);
    await toastAt(105);
    expect(await playedSounds(suite.page)).toEqual([]);
    await suite.page.getByLabel("Mute sounds").tap();
  });
});

describe("a row's alerts on a phone", () => {
  it("are listed in its sheet with the bells' details, each a tap from its edit modal", async () => {
    const count = spreadRow(suite.page, "GC_BUY").locator("[data-alert-count]");
    const alerts = Number(await count.getAttribute("data-alert-count"));
    await count.tap();
    const items = sheet().locator(".row-details__alert");
    await items.first().waitFor();
    expect(await items.count()).toBe(alerts);
    expect(await items.first().textContent()).toMatch(
      /^Threshold: 100\.00 · Status: Enabled · Sound: Bell · Telegram: No · Limit: 1 · Count: \d+$/,
    );
    await items
      .first()
      .getByRole("button", { name: /^Threshold: 100\.00/ })
      .tap();
    await modal(suite.page).getByRole("heading", { name: "Edit Alert" }).waitFor();
    expect(await sheet().count()).toBe(0);
    expect(await modal(suite.page).getByLabel("Alert me when Spread reaches").inputValue()).toBe(
      "100",
    );
    await modal(suite.page).getByRole("button", { name: "Cancel" }).tap();
    await modal(suite.page).waitFor({ state: "detached" });
  });
});

describe("system notifications while the tab is hidden", () => {
  it("are asked for on a click, never on load", async () => {
    expect((await notificationSpy(suite.page)).asked).toBe(0);
    await suite.page.getByLabel("Notify me when hidden").tap();
    expect((await notificationSpy(suite.page)).asked).toBe(1);
    expect(await suite.page.getByLabel("Notify me when hidden").isChecked()).toBe(true);
  });

  it("show nothing while the tab is visible: the toast is enough", async () => {
    await alertAndReload(106);
    await toastAt(106);
    expect((await notificationSpy(suite.page)).shown).toEqual([]);
  });

  it("show the crossing while the tab is hidden", async () => {
    await setHidden(suite.page, true);
    try {
      await alertAndReload(107);
      await expect
        .poll(async () => (await notificationSpy(suite.page)).shown.map((n) => n.body), WAIT)
        .toContainEqual(
          expect.stringMatching(/^Gold Buy crossed (above|below) 107\.00 [⬆⬇] — now/),
        );
      expect((await notificationSpy(suite.page)).asked).toBe(0);
    } finally {
      await setHidden(suite.page, false);
    }
  });
});

describe("the installable app", () => {
  it("links a manifest that parses under the CSP, with its icons", async () => {
    const refused: string[] = [];
    suite.page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    const cdp = await suite.page.context().newCDPSession(suite.page);
    const manifest = (await cdp.send("Page.getAppManifest")) as {
      url: string;
      errors: Array<{ message: string }>;
      data?: string;
    };
    await cdp.detach();
    expect(new URL(manifest.url).pathname).toBe("/manifest.webmanifest");
    expect(manifest.errors).toEqual([]);
    const data = JSON.parse(manifest.data ?? "{}") as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      icons: Array<{ src: string; sizes: string; type: string; purpose: string }>;
    };
    expect(data).toMatchObject({ name: "Spreadwatch", start_url: "/", display: "standalone" });
    expect(data.short_name).toBeTruthy();
    const pngs = data.icons.filter((icon) => icon.type === "image/png");
    expect(pngs.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual([
      "192x192 any",
      "512x512 any",
      "512x512 maskable",
    ]);
    const appleIcon = await suite.page.locator("link[rel='apple-touch-icon']").getAttribute("href");
    for (const icon of [...pngs, { src: appleIcon ?? "", sizes: "180x180" }]) {
      const size = await suite.page.evaluate(async (src) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        return `${image.naturalWidth}x${image.naturalHeight}`;
      }, icon.src);
      expect(size).toBe(icon.sizes);
    }
    // The browser bar takes the page's background: light here (and the inline script ran).
    const bar = await suite.page
      .locator("meta[name='theme-color']")
      .evaluateAll((metas) => metas.map((meta) => meta.getAttribute("content")));
    expect(bar).toEqual(["#eef1f4", "#eef1f4"]);
    expect(refused).toEqual([]);
  });
});
