import { describe, expect, it } from "vitest";
import { rest, trpcInput } from "./alerts.ts";
import { GOLD_SWING } from "./fixtures.ts";
import { goldSwingSuite } from "./gold-swing.ts";
import { procedure } from "./requests.ts";

// GC_BUY swings between +128.38 and +88.38 every 2 s (see fixtures.ts), so a browser alert at
// 100 fires within seconds: its trigger carries what it fired on and the History shows it.
const WAIT = { timeout: 30_000 };
const ERIN = { username: "erin", password: "erin-secret", alerts_enabled: true };

const suite = goldSwingSuite(ERIN);

describe("a browser firing in the History", () => {
  it("reports the value, metric and side it fired on, and the History lists it", async () => {
    const { page } = suite;
    const created = await rest(page, "POST", "/api/alerts", {
      commodityType: "GC_BUY",
      threshold: 100,
    });
    expect(created.status).toBe(200);
    const trigger = page.waitForRequest(procedure("alerts.trigger"), WAIT);
    await page.reload();
    const input = trpcInput(await trigger);
    const side = input.direction as "above" | "below";
    expect(input).toEqual({
      id: (created.json.alert as { id: number }).id,
      metric: "spread",
      direction: side,
      value: expect.any(Number),
    });
    // The live spread unrounded; the table shows it to 2 decimals.
    expect((input.value as number).toFixed(2)).toBe(
      side === "above" ? GOLD_SWING.high : GOLD_SWING.low,
    );

    await page.getByRole("button", { name: "Show Alerts Section" }).click();
    await page.getByRole("tab", { name: "History", exact: true }).click();
    const row = page.getByRole("table", { name: "Alert history" }).locator("tbody tr").last();
    await row.waitFor(WAIT);
    expect(await row.getAttribute("data-source")).toBe("browser");
    expect(await row.locator("[data-col='value']").textContent()).toBe(
      side === "above" ? GOLD_SWING.high : GOLD_SWING.low,
    );
    expect(await row.locator("[data-col='direction']").textContent()).toBe(
      side === "above" ? "⬆ crossed above" : "⬇ crossed below",
    );
    expect(await row.locator(".history__channel").allTextContents()).toEqual([
      "Browser: sent (1 attempt)",
    ]);
  });
});
