import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { rest } from "./alerts.ts";
import { A_DAY_OF_HISTORY, ADMIN, signIn, startApp } from "./harness.ts";
import { procedure, recordRequests } from "./requests.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedInSuite } from "./suite.ts";

// Admin → Instruments on the simulator, which quotes every instrument in use with the contract
// its month selector means today (docs/user-guide.md "Instruments").

// Putting an instrument in use starts its history fetch on the leader: a loaded machine answers
// the screen's next read seconds later, past Playwright's 30 s default (the test itself has 60 s).
const LOADED = { timeout: 50_000 };
const TRADER = { username: "trader", password: "trader-secret", alerts_enabled: true };

const suite = signedInSuite({
  app: () => startApp({ feed: "simulator", env: A_DAY_OF_HISTORY }),
  users: [TRADER],
  as: ADMIN,
  waitFor: (page) => page.locator("tr[data-key='mcx:GOLD'] [data-col='bid']"),
});

const MCX_CONTRACT = (root: string) =>
  new RegExp(`^${root}\\d{2}(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)FUT$`);

const inUse = (page: Page) => page.getByRole("table", { name: "Instruments in use" });
const instrumentRow = (page: Page, key: string) =>
  inUse(page).locator(`tr[data-instrument='${key}']`);
const priceRow = (page: Page, key: string) =>
  page.getByRole("table", { name: "Prices" }).locator(`tr[data-key='${key}']`);
const addButton = (page: Page) => page.getByRole("button", { name: "Add Instrument" });
const formMessage = (page: Page) =>
  page.getByRole("form", { name: "Add Instrument" }).locator(".message");

async function openInstruments(page: Page): Promise<void> {
  await page.getByRole("link", { name: "Admin" }).click();
  await page
    .getByRole("navigation", { name: "Admin pages" })
    .getByRole("link", {
      name: "Instruments",
    })
    .click();
  await page.waitForURL(/\/admin\/instruments$/);
  await instrumentRow(page, "GOLD").waitFor(LOADED);
}

async function pickFromCatalogue(page: Page, root: string, key: string): Promise<void> {
  await page.getByLabel("Instrument", { exact: true }).selectOption(root);
  await page.getByLabel("Contract month").selectOption(key);
  await expect
    .poll(() => page.getByTestId("catalogue-summary").locator("strong").textContent())
    .toBe(key);
}

async function backToDashboard(page: Page): Promise<void> {
  await page.getByRole("link", { name: "Back to Dashboard" }).click();
  await page.locator("tr[data-key='mcx:GOLD'] [data-col='bid']").waitFor(LOADED);
}

describe("Admin → Instruments", () => {
  it("lists the fifteen built-in instruments with their contracts, reached from the admin pages", async () => {
    await openInstruments(suite.page);
    const keys = await inUse(suite.page)
      .locator("tbody tr")
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-instrument")));
    expect(keys).toHaveLength(15);
    expect(keys).toEqual(expect.arrayContaining(["GOLD", "GC", "USDINR", "NIFTY50"]));
    const gold = instrumentRow(suite.page, "GOLD");
    expect(await gold.locator("th").textContent()).toContain("built-in");
    expect(await gold.locator("[data-col='exchange']").textContent()).toBe("MCX");
    await expect
      .poll(() => gold.locator("[data-col='contract']").textContent())
      .toMatch(MCX_CONTRACT("GOLD"));
    expect(await gold.locator("[data-col='lot']").textContent()).toContain("100");
  });

  it("adds ZINC (near) and GOLD (next) from the catalogue; both quote live in the Prices table with their contracts", async () => {
    const page = suite.page;
    await pickFromCatalogue(page, "ZINC", "ZINC");
    await addButton(page).click();
    await expect.poll(() => formMessage(page).textContent()).toContain("ZINC added");
    await instrumentRow(page, "ZINC").waitFor(LOADED);
    // GOLD's near month is in use: the catalogue offers its next and far months only.
    await page.getByLabel("Instrument", { exact: true }).selectOption("GOLD");
    const months = await page.getByLabel("Contract month").locator("option").allTextContents();
    expect(months).toEqual(["Next month (GOLD@next)", "Far month (GOLD@far)"]);
    await pickFromCatalogue(page, "GOLD", "GOLD@next");
    await addButton(page).click();
    await instrumentRow(page, "GOLD@next").waitFor(LOADED);

    await backToDashboard(page);
    const mcx = page.getByRole("table", { name: "Prices" }).locator("tbody[data-group='MCX']");
    for (const [key, root] of [
      ["mcx:ZINC", "ZINC"],
      ["mcx:GOLD@next", "GOLD"],
    ] as const) {
      const row = mcx.locator(`tr[data-key='${key}']`);
      await expect
        .poll(() => row.locator("[data-col='contract']").textContent(), { timeout: 20_000 })
        .toMatch(MCX_CONTRACT(root));
      expect(await row.locator("[data-col='expiry']").textContent()).toMatch(
        /^exp \d{1,2} [A-Z][a-z]{2} \d{4}$/,
      );
      // Live: its bid moves on (the simulator quotes a few times a second).
      const first = await row.locator("[data-col='bid']").textContent();
      expect(first).toMatch(/^\d+\.\d{2}$/);
      await expect
        .poll(() => row.locator("[data-col='timestamp']").textContent(), { timeout: 20_000 })
        .not.toBe(await row.locator("[data-col='timestamp']").textContent());
    }
    const near = await priceRow(page, "mcx:GOLD").locator("[data-col='contract']").textContent();
    const next = await priceRow(page, "mcx:GOLD@next")
      .locator("[data-col='contract']")
      .textContent();
    expect(next).not.toBe(near);
  });

  it("adds once on a double click", async () => {
    const page = suite.page;
    await openInstruments(page);
    const adds = recordRequests(page, procedure("instruments.add"));
    await pickFromCatalogue(page, "BZ", "BZ");
    await addButton(page).dblclick();
    await instrumentRow(page, "BZ").waitFor(LOADED);
    await expect.poll(() => formMessage(page).textContent()).toContain("BZ added");
    expect(adds).toHaveLength(1);
    expect(await instrumentRow(page, "BZ").count()).toBe(1);
  });

  it("shows the server's refusal of a custom instrument inline, marking the field it names", async () => {
    const page = suite.page;
    await page.getByRole("button", { name: "Custom" }).click();
    await page.getByLabel("Key").fill("GOLDGUINEA");
    await page.getByLabel("Exchange").selectOption("MCX");
    await page.getByLabel("Name").fill("Gold Guinea");
    await page.getByLabel("Quote unit").fill("INR / 8 g");
    await page.getByLabel("Units per lot").fill("-1");
    await page.getByLabel("Tick").fill("1");
    await addButton(page).click();
    const message = formMessage(page);
    await expect.poll(() => message.textContent()).toMatch(/^lotUnits: /);
    expect(await message.getAttribute("role")).toBe("alert");
    expect(await page.getByLabel("Units per lot").getAttribute("aria-invalid")).toBe("true");
    expect(await instrumentRow(page, "GOLDGUINEA").count()).toBe(0);

    // A key already in use is refused too (409), with the server's sentence.
    await page.getByLabel("Key").fill("ZINC");
    await page.getByLabel("Units per lot").fill("5000");
    await addButton(page).click();
    await expect.poll(() => message.textContent()).toMatch(/ZINC.*(in use|exists)/);
  });

  it("offers no Remove on the fifteen built-ins, and lists GOLD@next after GOLD by its own name", async () => {
    const page = suite.page;
    const rows = inUse(page).locator("tbody tr");
    const keys = await rows.evaluateAll((all) =>
      all.map((row) => row.getAttribute("data-instrument")),
    );
    expect(keys.indexOf("GOLD@next")).toBe(keys.indexOf("GOLD") + 1);
    const builtIn = rows.filter({ hasText: "built-in" });
    expect(await builtIn.count()).toBe(15);
    expect(await builtIn.getByRole("button", { name: /^Remove/ }).count()).toBe(0);
    expect(await instrumentRow(page, "GOLD@next").locator("[data-col='name']").textContent()).toBe(
      "Gold MCX (next month)",
    );
  });

  it("refuses to remove GOLD@next while a spread and an alert use it, naming them", async () => {
    const page = suite.page;
    const spread = await rest(page, "POST", "/api/spreads", {
      name: "Gold calendar",
      legs: [
        { name: "a", instrument: "GOLD" },
        { name: "b", instrument: "GOLD@next" },
      ],
      formula: "a - b",
    });
    expect(spread.status).toBe(201);
    const symbol = spread.json.symbol as string;
    const created = await rest(page, "POST", "/api/alerts", {
      commodityType: `${symbol}_BUY`,
      threshold: 100,
    });
    expect(created.status).toBe(200);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Remove GOLD@next", exact: true }).click();
    const refusal = page.getByRole("alert").filter({ hasText: "GOLD@next was not removed" });
    await refusal.waitFor(LOADED);
    expect(await refusal.textContent()).toContain(
      `used by the user spread “Gold calendar” (${symbol}) and 1 alert: ${symbol}_BUY at 100 (admin)`,
    );
    expect(await instrumentRow(page, "GOLD@next").count()).toBe(1);
  });

  it("keeps Remove on screen on a phone, the table scrolling behind it", async () => {
    const page = suite.page;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const remove = page.getByRole("button", { name: "Remove ZINC", exact: true });
      // The table scrolled all the way left, as it opens: Remove is on screen all the same.
      await instrumentRow(page, "ZINC").locator("th").scrollIntoViewIfNeeded();
      await inUse(page).evaluate((table) => {
        if (table.parentElement) table.parentElement.scrollLeft = 0;
      });
      const box = await remove.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
      const x = (box?.x ?? 0) + (box?.width ?? 0) / 2;
      const y = (box?.y ?? 0) + (box?.height ?? 0) / 2;
      expect(
        await page.evaluate(
          ([x, y]) => document.elementFromPoint(x ?? 0, y ?? 0)?.textContent,
          [x, y],
        ),
      ).toBe("Remove");
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("removes ZINC only after asking, and its row leaves the Prices table", async () => {
    const page = suite.page;
    const removes = recordRequests(page, procedure("instruments.remove"));
    page.once("dialog", (dialog) => void dialog.dismiss());
    await page.getByRole("button", { name: "Remove ZINC" }).click();
    expect(removes).toHaveLength(0);
    expect(await instrumentRow(page, "ZINC").count()).toBe(1);

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Remove ZINC" }).click();
    await expect.poll(() => instrumentRow(page, "ZINC").count(), { timeout: 30_000 }).toBe(0);
    expect(removes).toHaveLength(1);
    await backToDashboard(page);
    await priceRow(page, "mcx:GOLD@next").waitFor(LOADED);
    // The dashboard shows its cached prices until the stream's first message on this visit:
    // the row leaves with that message, which a loaded machine takes seconds to deliver.
    await expect.poll(() => priceRow(page, "mcx:ZINC").count(), { timeout: 30_000 }).toBe(0);
  });
});

describe("a trader (not an admin)", () => {
  it("cannot reach Admin → Instruments, nor add or remove through the API", async () => {
    const page = await openPage(suite.browser);
    try {
      await signIn(page, suite.app.url, TRADER.username, TRADER.password);
      expect(await page.getByRole("link", { name: "Admin" }).count()).toBe(0);
      await page.goto(`${suite.app.url}/admin/instruments`);
      await page.waitForURL(`${suite.app.url}/`);
      expect(await page.getByRole("table", { name: "Instruments in use" }).count()).toBe(0);
      expect((await rest(page, "POST", "/api/instruments", { key: "LEAD" })).status).toBe(403);
      expect((await rest(page, "DELETE", "/api/instruments/GOLD@next")).status).toBe(403);
      // The Prices table is the same for everyone: the admin's instruments are quoted for all.
      await page.locator("tr[data-key='mcx:GOLD@next'] [data-col='bid']").waitFor(LOADED);
    } finally {
      await closePage(page);
    }
  }, 120_000);
});

describe("the Prices table on a phone", () => {
  it("folds by exchange under headers a keyboard opens and closes", async () => {
    const page = await openPage(suite.browser, { width: 390, height: 844, hasTouch: true });
    try {
      await signIn(page, suite.app.url, TRADER.username, TRADER.password);
      const table = page.getByRole("table", { name: "Prices" });
      const mcx = table.getByRole("button", { name: /^MCX/ });
      await mcx.waitFor(LOADED);
      const toggles = await table
        .locator(".group-toggle")
        .evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-expanded")));
      expect(toggles.length).toBeGreaterThanOrEqual(5);
      expect(new Set(toggles)).toEqual(new Set(["false"]));
      expect(await mcx.textContent()).toMatch(/^MCX \d+ instruments$/);
      const gold = table.locator("tr[data-key='mcx:GOLD']");
      expect(await gold.isHidden()).toBe(true);

      await mcx.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => mcx.getAttribute("aria-expanded")).toBe("true");
      expect(await gold.isVisible()).toBe(true);
      expect(await table.locator("tr[data-key='cme:GC']").isHidden()).toBe(true);
      // aria-controls names the rows it shows.
      const controls = (await mcx.getAttribute("aria-controls"))?.split(" ") ?? [];
      expect(controls).toContain(await gold.getAttribute("id"));

      await page.keyboard.press("Space");
      await expect.poll(() => mcx.getAttribute("aria-expanded")).toBe("false");
      expect(await gold.isHidden()).toBe(true);

      // Every group open, the added months among them, the table still fits the phone: a
      // future's row shows its contract's month there (26DEC), the full name read out only.
      for (const toggle of await table.locator(".group-toggle").all()) await toggle.click();
      const next = table.locator("tr[data-key='mcx:GOLD@next']");
      expect(await next.isVisible()).toBe(true);
      expect(await next.locator(".contract-month").textContent()).toMatch(/^\d{2}[A-Z]{3}$/);
      const box = table.locator("xpath=..");
      const [inner, outer] = await box.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(inner).toBeLessThanOrEqual(outer as number);
    } finally {
      await closePage(page);
    }
  });

  it("is not folded on a desk screen", async () => {
    await suite.page
      .locator("tr[data-key='mcx:GOLD'] [data-col='bid']")
      .waitFor({ timeout: 90_000 });
    const table = suite.page.getByRole("table", { name: "Prices" });
    expect(await table.locator(".group-toggle").count()).toBe(0);
    expect(await table.locator("tr[data-key='mcx:GOLD']").isVisible()).toBe(true);
  });
});
