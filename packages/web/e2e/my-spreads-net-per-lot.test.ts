import {
  defaultCostRates,
  definitionPerLot,
  type SpreadLegDefinition,
  shippedInstrument,
} from "@spreadwatch/core";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { rest } from "./alerts.ts";
import { startApp } from "./harness.ts";
import { mySpreads } from "./spreads.ts";
import { signedInSuite } from "./suite.ts";

// docs/user-guide.md "Spreads of your own": a definition whose legs have lots shows Net / lot (₹)
// in My spreads, as the built-in rows do, with the cost breakdown on hover or focus; one without
// lots shows "–". Replayed fixed prices, so the numbers are core's definitionPerLot to the paisa.
const MINUTE = 60_000;

function replayCsv(): string {
  const start = Math.floor((Date.now() - 2 * 3600_000) / MINUTE) * MINUTE;
  return [
    "ts,source,key,bid,ask,price",
    `${start},fx,USDINR,,,84`,
    `${start},cme,GC,2000.0,2000.5,`,
    `${start},mcx,GOLD,57300,57320,`,
    `${start},mcx,SILVER,72000,72030,`,
    "",
  ].join("\n");
}

const TRADER = { username: "lena", password: "lena-secret-1" };

const suite = signedInSuite({
  app: () => startApp({ feed: "replay", replayCsv: replayCsv() }),
  users: [TRADER],
  as: TRADER,
  waitFor: (page) => mySpreads(page).getByRole("button", { name: "New spread" }),
});

const LOTS = {
  name: "Gold less silver, a lot each",
  legs: [
    { name: "g", instrument: "GOLD", lots: 1 },
    { name: "s", instrument: "SILVER", lots: 1 },
  ],
  formula: "g - s",
};
const NO_LOTS = {
  name: "Gold/silver",
  legs: [
    { name: "g", instrument: "GOLD" },
    { name: "s", instrument: "SILVER" },
  ],
  formula: "g / s",
};

const cell = (page: Page, symbol: string) =>
  mySpreads(page).locator(`tr[data-symbol='${symbol}'] [data-col='net-per-lot']`);

const rupees = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });
const netText = (v: number) => (v > 0 ? `+${rupees.format(v)}` : rupees.format(v));

describe("Net / lot in My spreads", () => {
  it("shows core's net on the legs' lots with its breakdown, and – without lots", async () => {
    const { page } = suite;
    const withLots = await rest(page, "POST", "/api/spreads", LOTS);
    const without = await rest(page, "POST", "/api/spreads", NO_LOTS);
    expect([withLots.status, without.status]).toEqual([201, 201]);
    const symbol = String(withLots.json.symbol);
    const legs = withLots.json.legs as SpreadLegDefinition[];
    await page.reload();

    for (const side of ["BUY", "SELL"] as const) {
      // BUY: GOLD at its ask less SILVER at its bid; SELL the other way round.
      const spread = side === "BUY" ? 57320 - 72000 : 57300 - 72030;
      const lot = definitionPerLot(
        { legs },
        {
          spread,
          legs:
            side === "BUY"
              ? { g: { price: 57320 }, s: { price: 72000 } }
              : {
                  g: { price: 57300 },
                  s: { price: 72030 },
                },
        },
        84,
        defaultCostRates(),
        shippedInstrument,
      );
      if (!lot) throw new Error("core gives no per-lot figures");
      expect(lot.units).toBe(100);
      const shown = cell(page, `${symbol}_${side}`);
      await expect.poll(() => shown.textContent(), { timeout: 30_000 }).toBe(netText(lot.netInr));
      expect(Number(await shown.getByRole("button").getAttribute("data-net-inr"))).toBe(lot.netInr);
      expect(await shown.getAttribute("class")).toContain("negative");
    }

    const button = cell(page, `${symbol}_BUY`).getByRole("button");
    await button.hover();
    const tip = page.getByRole("tooltip");
    await tip.waitFor();
    const text = (await tip.textContent()) ?? "";
    for (const part of [
      "The legs' lots (₹100 a point), ₹",
      "Gross-14,68,000.00",
      "Brokerage-80.00",
      "Net",
    ])
      expect(text).toContain(part);
    // No hedge line: a definition's legs are what it trades.
    expect(text).not.toContain("Hedge");
    await page.mouse.move(0, 0);
    await tip.waitFor({ state: "detached" });

    // Focus shows it too (keyboard users), and the name begins with what the cell shows.
    const label = (await button.getAttribute("aria-label")) ?? "";
    expect(label.startsWith(`${await button.textContent()} rupees net per lot of the spread`)).toBe(
      true,
    );
    await button.focus();
    await page.getByRole("tooltip").waitFor();
    await button.blur();

    const plain = cell(page, `${String(without.json.symbol)}_BUY`);
    await expect.poll(() => plain.textContent()).toBe("–");
    expect(await plain.getByRole("button").count()).toBe(0);
  });
});
