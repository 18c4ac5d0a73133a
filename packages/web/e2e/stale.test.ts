import { describe, expect, it } from "vitest";
import { oldFixtureCsv } from "./fixtures.ts";
import { ADMIN, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

const suite = signedInSuite({
  app: () => startApp({ feed: "replay", replayCsv: oldFixtureCsv() }),
  as: ADMIN,
  waitFor: (page) => page.locator("tr[data-key='cme:GC'] [data-col='bid']"),
});

describe("dashboard replaying quotes from 2024", () => {
  it("marks every raw price row stale", async () => {
    const rows = suite.page.getByRole("table", { name: "Prices" }).locator("tbody tr[data-key]");
    const stale = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-stale")));
    expect(stale).toEqual(Array(15).fill("true"));
    expect(await rows.locator(".stale-badge").count()).toBe(15);
  });

  it("shows the quotes' own time in IST", async () => {
    // 2024-03-15T09:30:01Z (the second quote, CME GC) is 15:00:01 IST.
    const text = await suite.page
      .locator("tr[data-key='cme:GC'] [data-col='timestamp']")
      .textContent();
    expect(text).toMatch(/^15\/0?3\/2024, 3:00:01 pm IST/);
  });

  it("still shows the prices and spreads they carry", async () => {
    expect(await suite.page.locator("tr[data-key='cme:GC'] [data-col='bid']").textContent()).toBe(
      "2650.000",
    );
    expect(
      await suite.page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']").textContent(),
    ).toBe("+128.38");
  });

  it("greys every spread row built on them, naming each old input", async () => {
    const rows = suite.page.locator("tr[data-symbol]");
    const greyed = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-greyed")));
    // 10 Spread rows, 2 Spot Spread rows, the Index Spread row.
    expect(greyed).toEqual(Array(13).fill("true"));
    const reason = (symbol: string) =>
      suite.page.locator(`tr[data-symbol='${symbol}'] .leg-warning`).getAttribute("aria-label");
    expect(await reason("GC_BUY")).toMatch(
      /^Not to be trusted now: CME GC bid is \d+ d old; MCX GOLD ask is \d+ d old; USDINR is \d+ d old$/,
    );
    expect(await reason("XAUUSD")).toMatch(
      /^Not to be trusted now: CME GC is \d+ d old; spot XAUUSD is \d+ d old$/,
    );
    expect(await reason("NIFTY")).toMatch(/GIFT NIFTY is \d+ d old; NIFTY 50 is \d+ d old$/);
    expect(await suite.page.locator("tr[data-symbol='GC_BUY'] .leg-warning").textContent()).toBe(
      "stale",
    );
    // The badge names the worst: NG_SELL's MCX bid is missing, which outweighs its old CME book.
    expect(await suite.page.locator("tr[data-symbol='NG_SELL'] .leg-warning").textContent()).toBe(
      "missing",
    );
    expect(await reason("NG_SELL")).toMatch(
      /^Not to be trusted now: MCX NATURALGAS bid missing; CME NG ask is \d+ d old; USDINR is \d+ d old$/,
    );
  });
});
