import type { Locator } from "playwright-core";
import { describe, expect, it } from "vitest";
import { addAlertButton, modal, rest } from "./alerts.ts";
import { plotBox } from "./chart-page.ts";
import { startApp } from "./harness.ts";
import { openDialog } from "./positions.ts";
import { builder, mySpreads } from "./spreads.ts";
import { signedInSuite } from "./suite.ts";
import { widestReplayCsv } from "./widest-fixture.ts";

// What a screen shows must be whole, at 1400 px and on a 390 px phone, on the widest values a row
// can show (widest-fixture.ts): the Advanced Spread Chart's OHLC legend sits above the plot, not
// over the line's top, and no select of the spread builder or of a dialog cuts its option's text
// ("GOLD(", "GOLD near/next caler").
const TRADER = { username: "meera", password: "meera-secret-1", alerts_enabled: true };
const CALENDAR = "GOLD near/next calendar";
const WIDTHS = [
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
] as const;

const suite = signedInSuite({
  app: () => startApp({ feed: "replay", replayCsv: widestReplayCsv() }),
  users: [TRADER],
  as: TRADER,
  page: { width: 1400, height: 900 },
  waitFor: (page) => mySpreads(page).getByRole("button", { name: "New spread" }),
});

/**
 * The selects in `scope` whose shown option's text is cut: each is compared with a copy of itself
 * holding only that text at its natural width, which is what the browser needs to show it whole
 * (text, padding and the arrow, whatever the browser makes of them).
 */
function cutSelects(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const cut: string[] = [];
    for (const select of root.querySelectorAll("select")) {
      if (select.getClientRects().length === 0) continue;
      const text = select.selectedOptions[0]?.text ?? "";
      const probe = select.cloneNode(false) as HTMLSelectElement;
      probe.removeAttribute("id");
      probe.style.cssText =
        "position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none;flex:none";
      const option = document.createElement("option");
      option.text = text;
      probe.append(option);
      select.parentElement?.append(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      const has = select.getBoundingClientRect().width;
      if (needed > has + 0.5) {
        const name = select.getAttribute("aria-label") ?? select.labels?.[0]?.textContent ?? "";
        cut.push(`${name}: "${text}" needs ${Math.ceil(needed)} px, has ${Math.floor(has)}`);
      }
    }
    return cut;
  });
}

let symbol = "";

describe("the Advanced Spread Chart's legend", () => {
  it("sits above the plot at 1400 and 390 px, covering none of it", async () => {
    const { page, app } = suite;
    await page.goto(`${app.url}/advanced-chart`);
    await page.getByLabel("Timeframe").selectOption("1m");
    await page.waitForFunction(() => (window.__spreadChart?.data[0].length ?? 0) > 0);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      const legend = page.getByTestId("chart-legend");
      // The chart rebuilds for a new width; measure once its plot has the new width's size.
      await expect
        .poll(async () => {
          const plot = await plotBox(page);
          const box = await legend.boundingBox();
          if (!box || plot.width > size.width) return "not laid out";
          // The legend's bottom edge at or above the plot's top row: no pixel of the plot under it.
          return box.y + box.height <= plot.y + 0.5 ? "clear" : `${box.y + box.height} > ${plot.y}`;
        })
        .toBe("clear");
    }
    await page.setViewportSize(WIDTHS[0]);
  });
});

describe("selects", () => {
  it("show the spread builder's options whole at 1400 and 390 px", async () => {
    const { page, app } = suite;
    await page.goto(`${app.url}/`);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await mySpreads(page).getByRole("button", { name: "New spread" }).click();
      const dialog = builder(page);
      await dialog.getByLabel("Leg 1 instrument").selectOption("GOLD");
      await dialog.getByLabel("Leg 2 instrument").selectOption("GOLD@next");
      expect(await cutSelects(dialog)).toEqual([]);
      // Every template, with the choices each shows.
      const template = dialog.getByLabel("Template", { exact: true });
      for (const kind of await template
        .locator("option")
        .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))) {
        await template.selectOption(kind);
        expect(await cutSelects(dialog)).toEqual([]);
      }
      await template.selectOption({ label: "Calendar: two months" });
      await dialog.getByLabel("Future", { exact: true }).selectOption("GOLD");
      await dialog.getByRole("button", { name: "Fill in legs and formula" }).click();
      expect(await cutSelects(dialog)).toEqual([]);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    }
    await page.setViewportSize(WIDTHS[0]);
  });

  it("show a row's alert dialog and the Open position dialog whole at 1400 and 390 px", async () => {
    const { page, app } = suite;
    const created = await rest(page, "POST", "/api/spreads", {
      name: CALENDAR,
      legs: [
        { name: "a", instrument: "GOLD", lots: 1 },
        { name: "b", instrument: "GOLD@next", lots: 1 },
      ],
      formula: "a - b",
    });
    expect(created.status).toBe(201);
    symbol = created.json.symbol as string;
    await page.goto(`${app.url}/`);
    await page.setViewportSize(WIDTHS[0]);
    await addAlertButton(page, `${symbol}_BUY`).first().click();
    await modal(page).waitFor();
    expect(await cutSelects(modal(page))).toEqual([]);
    await page.keyboard.press("Escape");
    await modal(page).waitFor({ state: "detached" });

    await page.goto(`${app.url}/positions`);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await page.getByRole("button", { name: "Open position" }).click();
      const dialog = openDialog(page);
      await dialog.getByLabel("Spread", { exact: true }).selectOption(symbol);
      expect(await cutSelects(dialog)).toEqual([]);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    }
    await page.setViewportSize(WIDTHS[0]);
  });
});
