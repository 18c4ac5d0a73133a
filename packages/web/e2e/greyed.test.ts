import { describe, expect, it } from "vitest";
import { CROSSED_GOLD, crossedGoldFixture } from "./fixtures.ts";
import { ADMIN, signIn, startApp } from "./harness.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedInSuite } from "./suite.ts";

// Waits are generous upper bounds for slow machines, not speed assertions (docs/design.md §7).
const WAIT = { timeout: 20_000 };

const suite = signedInSuite({
  app: () => startApp(crossedGoldFixture()),
  as: ADMIN,
  waitFor: (page) => page.locator("tr[data-symbol='SI_BUY'] [data-col='spread']"),
});

const spreadRow = (symbol: string) =>
  suite.page
    .getByRole("table", { name: "Spread", exact: true })
    .locator(`tr[data-symbol='${symbol}']`);
const warning = (symbol: string) => spreadRow(symbol).locator(".leg-warning");

describe("spreads on a crossed or missing leg", () => {
  it("greys the Gold rows, whose MCX book is crossed, and says so", async () => {
    await warning("GC_BUY").waitFor(WAIT);
    for (const symbol of ["GC_BUY", "GC_SELL"]) {
      expect(await spreadRow(symbol).getAttribute("data-greyed")).toBe("true");
      expect(await warning(symbol).textContent()).toBe("crossed");
      expect(await warning(symbol).getAttribute("aria-label")).toBe(
        "Not to be trusted now: MCX GOLD book crossed (bid 75995.00 > ask 75990.00)",
      );
    }
  });

  it("marks the crossed book in the raw price table", async () => {
    const gold = suite.page.locator("tr[data-key='mcx:GOLD']");
    expect(await gold.getAttribute("data-crossed")).toBe("true");
    expect(await gold.locator("[data-tag='crossed']").getAttribute("title")).toBe(
      `Crossed book: bid ${CROSSED_GOLD.bid}.00 > ask ${CROSSED_GOLD.ask}.00. One side is wrong, so no spread is computed from it.`,
    );
    expect(await suite.page.locator("tr[data-crossed]").count()).toBe(1);
  });

  it("greys a spread whose input is missing, naming it", async () => {
    expect(await spreadRow("NG_SELL").getAttribute("data-greyed")).toBe("true");
    expect(await warning("NG_SELL").textContent()).toBe("missing");
    expect(await warning("NG_SELL").getAttribute("aria-label")).toBe(
      "Not to be trusted now: MCX NATURALGAS bid missing",
    );
  });

  it("leaves rows on sound, fresh inputs alone", async () => {
    const greyed = await suite.page
      .locator("tr[data-greyed]")
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-symbol")));
    expect(greyed).toEqual(["GC_BUY", "GC_SELL", "NG_SELL"]);
    expect(await spreadRow("SI_BUY").locator(".leg-warning").count()).toBe(0);
  });

  it("shows the reason on hover", async () => {
    await warning("GC_BUY").hover();
    const tooltip = suite.page.getByRole("tooltip");
    await tooltip.waitFor(WAIT);
    expect(await tooltip.textContent()).toBe("MCX GOLD book crossed (bid 75995.00 > ask 75990.00)");
    await suite.page.mouse.move(0, 0);
    await tooltip.waitFor({ state: "detached", ...WAIT });
    expect(await suite.page.getByRole("tooltip").count()).toBe(0);
  });

  // Last: signing the admin in on a second page ends the first page's session.
  it("shows the reason on a tap, on a touch screen", async () => {
    const phone = await openPage(suite.browser, { width: 390, height: 844, hasTouch: true });
    try {
      await signIn(phone, suite.app.url, ADMIN.username, ADMIN.password);
      const badge = phone.locator("tr[data-symbol='NG_SELL'] .leg-warning");
      await badge.tap(WAIT);
      const tooltip = phone.getByRole("tooltip");
      await tooltip.waitFor(WAIT);
      expect(await tooltip.textContent()).toBe("MCX NATURALGAS bid missing");
      // The tap shows the reason; it does not open the row's chart.
      expect(new URL(phone.url()).pathname).toBe("/");
    } finally {
      await closePage(phone);
    }
  });
});
