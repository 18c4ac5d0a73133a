import { describe, expect, it } from "vitest";
import { acceptLoginOfTheDay, FakeKite } from "../../api/test/fakes/fake-kite.ts";
import { rest } from "./alerts.ts";
import { A_DAY_OF_HISTORY, ADMIN, type RunningApp, startApp } from "./harness.ts";
import { connectKite } from "./kite.ts";
import { openPositions } from "./positions.ts";
import { signedInSuite } from "./suite.ts";

// docs/user-guide.md "Positions (paper)" with a Kite connection: a fake Kite on loopback answers
// /margins/basket and /charges/orders in Kite Connect v3's shapes; the Positions screen shows
// Kite's margin with its source and time, and Kite's contract-note figure beside Spreadwatch's
// own costs in the breakdown. Prices come from the simulator; only the figures come from Kite.
const WAIT = { timeout: 60_000 };

interface KiteApp extends RunningApp {
  kite: FakeKite;
}

async function startWithKite(): Promise<KiteApp> {
  const kite = await new FakeKite().start();
  acceptLoginOfTheDay(kite);
  const app = await startApp({
    feed: "simulator",
    env: {
      ...A_DAY_OF_HISTORY,
      ...kite.env(),
    },
  });
  return {
    ...app,
    kite,
    async stop() {
      await app.stop();
      await kite.stop();
    },
  };
}

const suite = signedInSuite({
  app: startWithKite,
  as: ADMIN,
  page: { width: 1400, height: 900 },
  waitFor: (page) => page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']"),
});

describe("positions with a Kite connection", () => {
  it("shows Kite's margin and contract note with their source", async () => {
    const { page, app } = suite;
    const kite = (app as KiteApp).kite;
    expect(await connectKite(page, app.url)).toBe("/admin?kite=connected");
    await expect
      .poll(
        async () =>
          (await rest(page, "POST", "/api/positions", { spread: "GC", side: "BUY", lots: 2 }))
            .status,
        WAIT,
      )
      .toBe(201);
    await page.getByRole("link", { name: "Positions" }).click();
    const row = openPositions(page).locator("tr[data-spread='GC']");
    const margin = row.locator("[data-field='margin']");
    await expect.poll(() => margin.getAttribute("data-source"), WAIT).toBe("kite");
    expect(await margin.locator("[data-field='margin-source']").textContent()).toBe("Kite");
    expect(await margin.locator("[data-field='margin-at']").textContent()).toMatch(/ IST$/);
    expect(kite.marginRequests.length).toBeGreaterThan(0);
    const costs = row.locator("[data-field='costs'] button");
    await costs.focus();
    const broker = page.getByRole("tooltip").locator("[data-field='broker-costs']");
    await broker.waitFor(WAIT);
    expect(await broker.textContent()).toMatch(/^Kite contract note, .* IST[\d,]+\.\d{2}$/);
    // The flag says what the server says of the two figures.
    const { json } = await rest(page, "GET", "/api/positions");
    const [listed] = json.positions as { costMismatch: boolean }[];
    expect(await costs.getAttribute("data-cost-mismatch")).toBe(String(listed?.costMismatch));
  });

  it("flags a contract note more than ₹1 a lot away from Spreadwatch's costs", async () => {
    const { page, app } = suite;
    const kite = (app as KiteApp).kite;
    // Kite's brokerage ten times ours: the configured rates are out of date.
    kite.chargeRates.brokeragePerOrder = 200;
    kite.chargeRates.brokerageCapRate = 1;
    await expect
      .poll(async () => {
        const body = { spread: "SI", side: "SELL", lots: 1 };
        return (await rest(page, "POST", "/api/positions", body)).status;
      }, WAIT)
      .toBe(201);
    const costs = openPositions(page).locator("tr[data-spread='SI'] [data-field='costs'] button");
    await expect.poll(() => costs.getAttribute("data-cost-mismatch"), WAIT).toBe("true");
    expect(await costs.textContent()).toContain("⚠");
    await costs.focus();
    await page.getByRole("tooltip").locator("[data-field='cost-mismatch']").waitFor(WAIT);
  });
});
