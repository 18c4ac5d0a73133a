import { describe, expect, it } from "vitest";
import { rest } from "./alerts.ts";
import { answerNextDialog } from "./dialogs.ts";
import { A_DAY_OF_HISTORY, startApp } from "./harness.ts";
import {
  closeDialog,
  closedTrades,
  doubleClick,
  figure,
  listedPositions,
  openDialog,
  openPositions,
} from "./positions.ts";
import { signedInSuite } from "./suite.ts";

// docs/user-guide.md "Positions (paper)", in Chromium on the production start with the simulator: a
// trader opens a BUY on GC from the Gold Buy row's details sheet (a phone, where a tap opens it),
// sees it as a card, then on a desktop watches its net ₹ and return on margin move with the market,
// closes half and exports the closed trades. Marks are computed in the browser from the stream.
const WAIT = { timeout: 60_000 };
const LONG = 240_000;
const PIA = { username: "pia", password: "pia-secret-1", alerts_enabled: true };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1400, height: 900 };

const suite = signedInSuite({
  app: () => startApp({ feed: "simulator", env: A_DAY_OF_HISTORY }),
  users: [PIA],
  as: PIA,
  page: { ...PHONE, hasTouch: true },
  waitFor: (page) => page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']"),
});

describe("a paper position on GC", () => {
  it(
    "refuses bad lots and a typed entry that is no number, sending nothing",
    async () => {
      const { page } = suite;
      await page.locator("tr[data-symbol='GC_BUY'] .symbol__details").click();
      await page.locator("dialog.sheet").getByRole("button", { name: "Open position" }).click();
      const dialog = openDialog(page);
      await dialog.waitFor();
      let sent = 0;
      const count = (request: { url(): string }) => {
        if (request.url().includes("positions.open")) sent++;
      };
      page.on("request", count);
      await dialog.getByLabel("Lots", { exact: true }).fill("0");
      await dialog.getByRole("button", { name: "Open position" }).click();
      await dialog.getByText("Lots must be a whole number from 1 to 10,000.").waitFor();
      await dialog.getByLabel("Lots", { exact: true }).fill("2.5");
      await dialog.getByRole("button", { name: "Open position" }).click();
      await dialog.getByText("Lots must be a whole number from 1 to 10,000.").waitFor();
      await dialog.getByLabel("Lots", { exact: true }).fill("1");
      await dialog.getByLabel("A spread value I type").check();
      await dialog.getByLabel("Entry value", { exact: true }).fill("12abc");
      await dialog.getByRole("button", { name: "Open position" }).click();
      await dialog.getByText("Type the entry as a number, e.g. 125.50.").waitFor();
      page.off("request", count);
      expect(sent).toBe(0);
      expect(await listedPositions(page)).toEqual([]);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
    },
    LONG,
  );

  it(
    "opens a BUY of 2 lots from the details sheet at the live value: a double click makes one",
    async () => {
      const { page } = suite;
      await page.locator("tr[data-symbol='GC_BUY'] .symbol__details").click();
      const sheet = page.locator("dialog.sheet");
      await sheet.getByRole("button", { name: "Open position" }).click();
      await sheet.waitFor({ state: "detached" });
      const dialog = openDialog(page);
      expect(await dialog.getByLabel("Spread", { exact: true }).inputValue()).toBe("GC");
      expect(await dialog.getByLabel("Buy the spread").isChecked()).toBe(true);
      await expect
        .poll(() => dialog.locator("[data-field='live-value']").textContent(), WAIT)
        .toMatch(/GC_BUY now [+−]?\d/);
      await dialog.getByLabel("Lots", { exact: true }).fill("2");
      await dialog.getByLabel("Note", { exact: true }).fill("e2e: parity stretched");
      await doubleClick(dialog.getByRole("button", { name: "Open position" }));
      await dialog.getByText(/^Opened BUY 2 × Gold at [+−]?[\d,.]+\. No order was sent/).waitFor();
      const positions = await listedPositions(page);
      expect(positions).toHaveLength(1);
      expect(positions[0]).toMatchObject({ spread: "GC", side: "BUY", lots: 2 });
      await dialog.getByRole("link", { name: "View positions" }).click();
      await page.waitForURL(`${suite.app.url}/positions`);
      await dialog.waitFor({ state: "detached" });
    },
    LONG,
  );

  it(
    "shows the position as a card on a phone, nothing wider than the screen",
    async () => {
      const { page } = suite;
      const card = openPositions(page).locator("li.position-card[data-spread='GC']");
      await card.waitFor();
      expect(await card.locator("[data-field='lots']").textContent()).toBe("2");
      await expect.poll(() => figure(card, "net"), WAIT).not.toBeNull();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(PHONE.width);
    },
    LONG,
  );

  it(
    "marks it live on a desktop: net ₹ and return on margin move with the simulator",
    async () => {
      const { page } = suite;
      await page.setViewportSize(DESKTOP);
      const row = openPositions(page).locator("tr[data-spread='GC']");
      await row.waitFor();
      const [listed] = await listedPositions(page);
      if (!listed) throw new Error("no position listed");
      // The stream moves the mark several times a second; the server's list only every 30 s.
      // Ten different net figures inside the deadline come from the browser's own marking.
      const nets = new Set<number>();
      await expect
        .poll(async () => {
          const net = await figure(row, "net");
          if (net !== null) nets.add(net);
          return nets.size;
        }, WAIT)
        .toBeGreaterThanOrEqual(10);
      // Margin from the configured rates, and the return on it moving with the net.
      await expect
        .poll(() => row.locator("[data-field='margin']").getAttribute("data-source"), WAIT)
        .toBe("configured");
      const returns = new Set<number>();
      await expect
        .poll(async () => {
          const rom = await figure(row, "return-on-margin");
          if (rom !== null) returns.add(rom);
          return returns.size;
        }, WAIT)
        .toBeGreaterThanOrEqual(10);
      // What the row says is core's arithmetic on what it shows: net = gross − costs (read in
      // one go, between two marks).
      const shown = await row.evaluate((tr) => {
        const value = (selector: string) =>
          Number(tr.querySelector(selector)?.getAttribute("data-value") ?? Number.NaN);
        return {
          gross: value("[data-field='gross']"),
          costs: value("[data-field='costs'] button"),
          net: value("[data-field='net']"),
        };
      });
      expect(Number.isFinite(shown.gross) && Number.isFinite(shown.net)).toBe(true);
      expect(Math.abs(shown.gross - shown.costs - shown.net)).toBeLessThanOrEqual(0.01);
      // The totals row sums the one position.
      const totals = openPositions(page).locator("[data-row='totals']");
      expect(await figure(totals, "total-net")).not.toBeNull();
    },
    LONG,
  );

  it(
    "closes half at the live exit and shows the realised ₹",
    async () => {
      const { page } = suite;
      // Nothing to export before the first close.
      const exportCsv = closedTrades(page).getByRole("button", { name: "Export CSV" });
      expect(await exportCsv.isDisabled()).toBe(true);
      const row = openPositions(page).locator("tr[data-spread='GC']");
      await row.getByRole("button", { name: "Close" }).click();
      const dialog = closeDialog(page);
      await dialog.getByLabel(/Lots to close/).fill("1");
      await doubleClick(dialog.getByRole("button", { name: "Close position" }));
      const realised = dialog.locator("[data-field='realised']");
      await realised.waitFor();
      const realisedInr = Number(await realised.getAttribute("data-value"));
      expect(await dialog.textContent()).toMatch(
        /Closed 1 lot of BUY Gold at [+−]?[\d,.]+: realised/,
      );
      await dialog.getByRole("button", { name: "Done" }).click();
      await expect.poll(() => row.locator("[data-field='lots']").textContent(), WAIT).toBe("1");
      const [left] = await listedPositions(page);
      expect(left?.lots).toBe(1);
      // One close, in the closed trades with the summary.
      const trade = closedTrades(page).locator("tr[data-close]");
      await expect.poll(() => trade.count(), WAIT).toBe(1);
      expect(await trade.locator("th").textContent()).toBe("BUY 1 × Gold");
      await expect
        .poll(() => closedTrades(page).locator("[data-field='summary-trades']").textContent(), WAIT)
        .toBe("1");
      expect(await figure(trade, "realised")).toBe(realisedInr);
      await closedTrades(page).getByRole("link", { name: "Export CSV" }).waitFor();
      expect(await exportCsv.count()).toBe(0);
    },
    LONG,
  );

  it("exports the closed trades as CSV from the link", async () => {
    const { page } = suite;
    const link = closedTrades(page).getByRole("link", { name: "Export CSV" });
    expect(await link.getAttribute("href")).toBe("/api/positions/closed.csv");
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    const stream = await download.createReadStream();
    let text = "";
    for await (const chunk of stream) text += chunk.toString();
    const lines = text.trim().split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/GC/);
  });

  it("sets a target and a stop on net ₹, refusing a target under the stop", async () => {
    const { page } = suite;
    const row = openPositions(page).locator("tr[data-spread='GC']");
    await row.locator("[data-field='target-stop'] button").click();
    const dialog = page.locator("dialog[data-dialog='edit-position']");
    await dialog.getByLabel("Target, net ₹").fill("100");
    await dialog.getByLabel("Stop, net ₹").fill("200");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByText("The target must be above the stop.").waitFor();
    await dialog.getByLabel("Target, net ₹").fill("20000");
    await dialog.getByLabel("Stop, net ₹").fill("-5000");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect
      .poll(() => row.locator("[data-field='target-stop'] button").textContent(), WAIT)
      .toBe("Edit target and stop: target +₹20,000 stop −₹5,000");
    const { json } = await rest(page, "GET", "/api/positions");
    expect(json.positions).toMatchObject([{ targetInr: 20000, stopInr: -5000 }]);
  });

  it("deletes a position opened by mistake, after asking", async () => {
    const { page } = suite;
    const row = openPositions(page).locator("tr[data-spread='GC']");
    await row.locator("[data-field='target-stop'] button").click();
    const dialog = page.locator("dialog[data-dialog='edit-position']");
    const question = answerNextDialog(page);
    await dialog.getByRole("button", { name: "Delete" }).click();
    expect(await question).toMatch(/^Delete BUY 1 × Gold\?/);
    await dialog.waitFor({ state: "detached" });
    await row.waitFor({ state: "detached" });
    expect(await listedPositions(page)).toEqual([]);
    await openPositions(page)
      .getByText(/^No open positions\./)
      .waitFor();
  });

  it("answers 404 for a position id that is not the user's", async () => {
    const { page } = suite;
    const { status } = await rest(page, "GET", "/api/positions/999999");
    expect(status).toBe(404);
  });
});
