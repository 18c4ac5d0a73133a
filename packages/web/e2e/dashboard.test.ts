import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { EXPECTED_SPREADS, freshFixture } from "./fixtures.ts";
import { ADMIN, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

const suite = signedInSuite({
  app: () => startApp(freshFixture()),
  as: ADMIN,
  waitFor: (page) => page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']"),
});

const cellText = (row: string, col: string) =>
  suite.page.locator(`${row} [data-col='${col}']`).textContent();

describe("dashboard with the replay fixture", () => {
  it("shows the title", async () => {
    expect(await suite.page.locator("h1").textContent()).toBe("Commodity Prices Dashboard");
  });

  it("shows every spread, CME and MCX price with the spec's decimals", async () => {
    const table = suite.page.getByRole("table", { name: "Spread", exact: true });
    const groups = await table.locator("tbody .group-row").allTextContents();
    expect(groups).toEqual(["Silver", "Gold", "Copper", "Natural Gas", "Crude Oil"]);
    const symbols = await table
      .locator("tbody tr[data-symbol]")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-symbol")));
    expect(symbols).toEqual([
      "SI_BUY",
      "SI_SELL",
      "GC_BUY",
      "GC_SELL",
      "HG_BUY",
      "HG_SELL",
      "NG_BUY",
      "NG_SELL",
      "CL_BUY",
      "CL_SELL",
    ]);
    for (const [symbol, expected] of Object.entries(EXPECTED_SPREADS)) {
      const row = `tr[data-symbol='${symbol}']`;
      const shown = {
        spread: await cellText(row, "spread"),
        cme: await cellText(row, "cme"),
        mcx: await cellText(row, "mcx"),
      };
      expect(shown, symbol).toEqual(expected);
      // The admin has alerts_enabled: a plus button and no bells yet ("No alerts" is for users
      // without the permission; see alerts-ui.test.ts).
      const alerts = suite.page.locator(`${row} [data-col='alerts']`);
      expect(await alerts.getByRole("button").count()).toBe(1);
      await alerts.getByRole("button", { name: "Add new alert" }).waitFor();
    }
  });

  it("colours spreads green above zero and red below", async () => {
    const spread = (symbol: string) =>
      suite.page.locator(`tr[data-symbol='${symbol}'] [data-col='spread']`);
    await expect(classes(spread("GC_BUY"))).resolves.toContain("positive");
    await expect(classes(spread("SI_BUY"))).resolves.toContain("negative");
    await expect(classes(spread("NG_SELL"))).resolves.not.toMatch(/positive|negative/);
    const green = await color(spread("GC_BUY"));
    const red = await color(spread("SI_BUY"));
    expect(green).not.toBe(red);
    expect(channels(green).g).toBeGreaterThan(channels(green).r);
    expect(channels(red).r).toBeGreaterThan(channels(red).g);
  });

  it("says which price a missing spread lacks", async () => {
    const title = await suite.page
      .locator("tr[data-symbol='NG_SELL'] [data-col='spread']")
      .getAttribute("title");
    expect(title).toBe("Cannot compute: no MCX NATURALGAS bid");
  });

  it("explains the parity in each row's tooltip", async () => {
    expect(await suite.page.locator("tr[data-symbol='GC_BUY']").getAttribute("title")).toBe(
      "CME 2650.000 × 0.32151 × USDINR 84.0000 × (1 + 6%) = parity 75861.62",
    );
    expect(await suite.page.locator("tr[data-symbol='HG_SELL']").getAttribute("title")).toBe(
      "CME 4.1535 × 2.20462 × USDINR 84.0000 × (1 + 0%) = parity 769.1796",
    );
  });

  it("shows the spot spreads", async () => {
    const table = suite.page.getByRole("table", { name: "Spot Spread" });
    const gold = table.locator("tr[data-symbol='XAUUSD']");
    const silver = table.locator("tr[data-symbol='XAGUSD']");
    expect(await gold.locator("th").textContent()).toBe("Gold");
    expect(await gold.locator("[data-col='spread']").textContent()).toBe("+2.15");
    expect(await gold.locator("[data-col='future']").textContent()).toBe("2650.25");
    expect(await gold.locator("[data-col='spot']").textContent()).toBe("2648.10");
    await expect(classes(gold.locator("[data-col='spread']"))).resolves.toContain("positive");
    expect(await silver.locator("th").textContent()).toBe("Silver");
    expect(await silver.locator("[data-col='spread']").textContent()).toBe("-0.04");
    await expect(classes(silver.locator("[data-col='spread']"))).resolves.toContain("negative");
  });

  it("shows the index spread", async () => {
    const row = suite.page.getByRole("table", { name: "Index Spread" }).locator("tbody tr");
    expect(await row.locator("[data-col='spread']").textContent()).toBe("+70.25");
    expect(await row.locator("[data-col='future']").textContent()).toBe("24150.50");
    expect(await row.locator("[data-col='spot']").textContent()).toBe("24080.25");
  });

  it("tags no spread as delayed when every input is live", async () => {
    expect(await suite.page.locator("tr[data-delayed]").count()).toBe(0);
    expect(await suite.page.locator("[data-col='spread'] .price-tag").count()).toBe(0);
    expect(await suite.page.locator("tr[data-symbol='NIFTY'] [data-col='spread']").count()).toBe(1);
  });

  it("lists every instrument in use by exchange, US futures first, then MCX, spot, index and FX, none stale", async () => {
    const table = suite.page.getByRole("table", { name: "Prices" });
    const groups = await table
      .locator("tbody")
      .evaluateAll((bodies) => bodies.map((b) => b.getAttribute("data-group")));
    expect(groups).toEqual(["COMEX", "NYMEX", "MCX", "Spot", "Index", "FX"]);
    const rows = table.locator("tbody tr[data-key]");
    const keys = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-key")));
    expect(keys).toEqual([
      "cme:SI",
      "cme:GC",
      "cme:HG",
      "cme:NG",
      "cme:CL",
      "mcx:SILVER",
      "mcx:GOLD",
      "mcx:COPPER",
      "mcx:NATURALGAS",
      "mcx:CRUDEOIL",
      "spot:XAUUSD",
      "spot:XAGUSD",
      "index:NIFTY50",
      "index:GIFTNIFTY",
      "fx:USDINR",
    ]);
    const stale = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-stale")));
    expect(stale).toEqual(Array(15).fill("false"));
    // The fifteen keep their labels; a replay names no contract, so none shows one.
    expect(await table.locator("tr[data-key='cme:GC'] th").textContent()).toBe("CME GC");
    expect(await table.locator("[data-col='contract']").count()).toBe(0);
    expect(await cellText("tr[data-key='index:NIFTY50']", "price")).toBe("24080.25");
    expect(await cellText("tr[data-key='fx:USDINR']", "price")).toBe("84.0000");
    expect(await cellText("tr[data-key='cme:HG']", "bid")).toBe("4.1525");
    expect(await cellText("tr[data-key='cme:GC']", "ask")).toBe("2650.500");
    expect(await cellText("tr[data-key='mcx:GOLD']", "bid")).toBe("75980.00");
    expect(await cellText("tr[data-key='mcx:NATURALGAS']", "bid")).toBe("—");
    expect(await suite.page.locator(".last-updated").textContent()).toMatch(
      /^Last updated: \d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2}:\d{2} [ap]m IST$/,
    );
  });
});

function classes(locator: ReturnType<Page["locator"]>): Promise<string> {
  return locator.getAttribute("class").then((c) => c ?? "");
}

function color(locator: ReturnType<Page["locator"]>): Promise<string> {
  return locator.evaluate((el) => getComputedStyle(el).color);
}

function channels(rgb: string): { r: number; g: number } {
  const [r = 0, g = 0] = (rgb.match(/\d+/g) ?? []).map(Number);
  return { r, g };
}
