import { defaultCostRates, formatSigned, perLot } from "@spreadwatch/core";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ADMIN, RETRY_RESET, signIn, startApp } from "./harness.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedInSuite } from "./suite.ts";

/**
 * docs/user-guide.md "Net / lot (₹) and z" on the dashboard: the Net / lot (₹) and z columns
 * against the real API. The replay: the hand-worked prices of the api's per-lot test at the first
 * minute, then 29 more minutes of GOLD asks moving around 57320, ending back at 57320, so GC_BUY's
 * closes have a spread (a z) and its live value is the hand-worked 65.950510587292 (net +5,048.32 a
 * GOLD lot).
 */
const MINUTE = 60_000;
const MINUTES = 30;
const ASK_OFFSETS = [0, 10, -10, 20, -5, 15];

function replayCsv(): string {
  const start = Math.floor((Date.now() - 2 * 3600_000) / MINUTE) * MINUTE - (MINUTES - 1) * MINUTE;
  const rows = [
    `${start},fx,USDINR,,,84`,
    `${start},cme,GC,2000.0,2000.5,`,
    `${start},cme,SI,25.000,25.010,`,
    `${start},mcx,SILVER,72000,72030,`,
    `${start},cme,HG,4.0000,4.0010,`,
    `${start},mcx,COPPER,741.10,741.60,`,
    `${start},cme,NG,3.000,3.002,`,
    `${start},mcx,NATURALGAS,252.3,252.5,`,
    `${start},cme,CL,70.00,70.02,`,
    `${start},mcx,CRUDEOIL,5875,5878,`,
  ];
  for (let i = 0; i < MINUTES; i++) {
    const ask = i === MINUTES - 1 ? 57320 : 57320 + (ASK_OFFSETS[i % ASK_OFFSETS.length] ?? 0);
    rows.push(`${start + i * MINUTE + 1},mcx,GOLD,57300,${ask},`);
  }
  return ["ts,source,key,bid,ask,price", ...rows, ""].join("\n");
}

const PHONE = { username: "phone", password: "phone-secret-1" };

const suite = signedInSuite({
  app: () => startApp({ feed: "replay", replayCsv: replayCsv() }),
  // The phone signs in as someone else: a second login of one user ends the first session.
  users: [PHONE],
  as: ADMIN,
  waitFor: (page) => page.locator("tr[data-symbol='GC_BUY'] [data-col='net-per-lot'] button"),
});

const rupees = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });
/** The column's format, written out: whole rupees, Indian grouping, + for a gain. */
const netText = (v: number) => (v > 0 ? `+${rupees.format(v)}` : rupees.format(v));

const cell = (p: Page, symbol: string, col: string) =>
  p.locator(`tr[data-symbol='${symbol}'] [data-col='${col}']`);

async function api(path: string) {
  const response = await suite.page.request.get(`${suite.app.url}${path}`, RETRY_RESET);
  // biome-ignore lint/suspicious/noExplicitAny: raw JSON, read field by field
  return (await response.json()) as any;
}

describe("Net / lot (₹)", () => {
  it("shows /api/calculations' perLot.netInr for every spread, GC_BUY's as worked by hand", async () => {
    const calculations = await api("/api/calculations");
    expect(calculations.GC_BUY.perLot.netInr).toBe(5048.32);
    for (const symbol of ["GC_BUY", "GC_SELL", "SI_BUY", "HG_SELL", "NG_BUY", "CL_SELL"]) {
      await expect
        .poll(() => cell(suite.page, symbol, "net-per-lot").textContent())
        .toBe(netText(calculations[symbol].perLot.netInr));
    }
    expect(await cell(suite.page, "GC_BUY", "net-per-lot").textContent()).toBe("+5,048");
  });

  it("shows the breakdown on hover: gross, each cost, net, and the hedge", async () => {
    await cell(suite.page, "GC_BUY", "net-per-lot").getByRole("button").hover();
    const tip = suite.page.getByRole("tooltip");
    await tip.waitFor();
    const text = (await tip.textContent()) ?? "";
    for (const part of [
      "1 GOLD lot",
      "Gross6,595.05",
      "Brokerage-40.00",
      "Exchange charges-240.74",
      "SEBI fee-11.46",
      "CTT (sell)-573.20",
      "Stamp duty (buy)-114.64",
      "GST-52.60",
      "CME fees ($6.12)-514.08",
      "Net5,048.32",
      "Hedge: 3 × MGC, 6.6896 units unhedged",
    ])
      expect(text).toContain(part);
    await suite.page.mouse.move(0, 0);
    await tip.waitFor({ state: "detached" });
  });

  it("shows the per-lot figures in the row's sheet on a phone (the column is for wide screens)", async () => {
    const phone = await openPage(suite.browser, { width: 390, height: 844, hasTouch: true });
    try {
      await signIn(phone, suite.app.url, PHONE.username, PHONE.password);
      const row = phone.locator('tr[data-symbol="CL_SELL"]');
      // The replay's prices are old, so the row carries a "stale" badge: tap the symbol itself.
      const symbol = row.locator("th").getByText("CL_SELL", { exact: true });
      await symbol.scrollIntoViewIfNeeded();
      await symbol.tap();
      const facts = phone.locator("dialog.sheet [data-field='per-lot']");
      await facts.waitFor();
      const text = (await facts.textContent()) ?? "";
      // Net −945.56 shown in whole rupees; the hedge is one micro crude contract.
      expect(text).toMatch(/Net.*946/);
      expect(text).toContain("1 × MCL");
      expect(new URL(phone.url()).pathname).toBe("/");
    } finally {
      await closePage(phone);
    }
  });

  it("prices a GOLDM lot once the Profile page says so, for both Gold rows only", async () => {
    const calculations = await api("/api/calculations");
    const before = await cell(suite.page, "SI_BUY", "net-per-lot").textContent();
    await suite.page.getByRole("link", { name: "Profile" }).click();
    await suite.page.getByLabel("Gold", { exact: true }).selectOption("GOLDM");
    await suite.page.getByRole("link", { name: "Back to Dashboard" }).click();
    for (const symbol of ["GC_BUY", "GC_SELL"]) {
      const mini = perLot(
        symbol as "GC_BUY",
        calculations[symbol],
        84,
        { GC: "GOLDM" },
        defaultCostRates(),
      );
      expect(mini?.contract).toBe("GOLDM");
      await expect
        .poll(() => cell(suite.page, symbol, "net-per-lot").textContent())
        .toBe(netText(mini?.netInr ?? Number.NaN));
    }
    expect(await cell(suite.page, "SI_BUY", "net-per-lot").textContent()).toBe(before);
    // Kept in this browser across a reload.
    await suite.page.reload();
    await cell(suite.page, "GC_BUY", "net-per-lot").getByRole("button").hover();
    await expect.poll(() => suite.page.getByRole("tooltip").textContent()).toContain("1 GOLDM lot");
    await suite.page.mouse.move(0, 0);
  });
});

describe("z", () => {
  it("shows /api/spread-stats' z, coloured by its size, the percentile in its tooltip", async () => {
    const stats = await api("/api/spread-stats/GC_BUY?days=20");
    expect(stats.n).toBe(MINUTES - 1);
    expect(stats.z).not.toBeNull();
    const z = cell(suite.page, "GC_BUY", "z");
    await expect.poll(() => z.textContent()).toBe(formatSigned(stats.z, 2));
    const size = Math.abs(stats.z);
    const want = size < 1 ? "z--calm" : size < 2 ? "z--watch" : stats.z > 0 ? "z--high" : "z--low";
    expect(await z.getAttribute("class")).toContain(want);
    await z.getByRole("button").hover();
    await expect
      .poll(() => suite.page.getByRole("tooltip").textContent())
      .toContain(`20-day percentile ${stats.percentile.toFixed(1)}`);
    await suite.page.mouse.move(0, 0);
    // GC_SELL's bid never moved: σ 0, no z.
    expect((await api("/api/spread-stats/GC_SELL")).z).toBeNull();
    expect(await cell(suite.page, "GC_SELL", "z").textContent()).toBe("–");
  });
});
