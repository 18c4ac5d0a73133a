import { describe, expect, it } from "vitest";
import { alertsPanel, rest } from "./alerts.ts";
import { expectAccessible } from "./axe.ts";
import { longHistoryCsv, longStart } from "./chart-fixtures.ts";
import { ADMIN, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

/**
 * docs/backtest.md in Chromium, on the long replay's 1,700 one-minute candles (GC_BUY swings
 * between −30 and +30; GC_SELL about 24 below it): a trader backtests "sell above, buy back at"
 * over 30 days, sees the trades on the chart and the equity curve, sweeps the two thresholds,
 * and asks an alert how it would have done.
 */
const suite = signedInSuite({
  app: () => startApp({ feed: "replay", replayCsv: longHistoryCsv(longStart()) }),
  as: ADMIN,
  open: { link: "Advanced Charts", path: "/advanced-chart" },
});
const page = () => suite.page;
const panel = () => page().getByTestId("backtest-panel");

describe("the Backtest panel on the Advanced Spread Chart", () => {
  it("runs a rule, marks its trades on the chart and draws the equity curve, as the API answers", async () => {
    const p = page();
    await p.waitForFunction(() => (window.__spreadChart?.data[0].length ?? 0) > 1);
    await panel().getByLabel("Sell above").fill("0");
    await panel().getByLabel("Buy back at").fill("-20");
    await panel().getByLabel("Period").selectOption("30");
    await panel().getByRole("button", { name: "Run backtest" }).click();
    const result = panel().getByTestId("backtest-result");
    await result.waitFor();
    const trades = Number(await result.locator("[data-field='trades']").textContent());
    expect(trades).toBeGreaterThanOrEqual(3);
    // Every trade is an entry and an exit mark on the chart, and a row of the table.
    await expect.poll(() => p.locator(".chart-trade--entry-short").count()).toBe(trades);
    expect(await p.locator(".chart-trade--exit").count()).toBe(trades);
    expect(await result.locator("tbody tr").count()).toBe(trades);
    await result.getByTestId("backtest-equity").waitFor();

    // The same rule through the API: the same trades, the same net.
    const to = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
    const api = await rest(p, "POST", "/api/backtests", {
      symbol: "GC",
      from: to - 30 * 86_400_000,
      to,
      metric: "spread",
      sellAbove: 0,
      exitShortAt: -20,
    });
    expect(api.status).toBe(200);
    const summary = api.json.summary as { trades: number; netInr: number };
    expect(summary.trades).toBe(trades);
    const shown = (await result.locator("[data-field='net']").textContent()) ?? "";
    expect(Number(shown.replace(/[₹,]/g, ""))).toBeCloseTo(summary.netInr, 2);
  });

  it("refuses a rule on the wrong side with the server's sentence", async () => {
    await panel().getByLabel("Sell above").fill("0");
    await panel().getByLabel("Buy back at").fill("5");
    await panel().getByRole("button", { name: "Run backtest" }).click();
    await panel().getByRole("alert").waitFor();
    await expect
      .poll(() => panel().getByRole("alert").first().textContent())
      .toContain("exitShortAt must be below sellAbove");
    await panel().getByLabel("Buy back at").fill("-20");
  });

  it("sweeps two thresholds: in-sample and out-of-sample heat maps side by side, with the warning", async () => {
    const sweep = page().getByTestId("backtest-sweep");
    // 11 × 11 cells: more than one frame's worth, so the maps are drawn a few rows at a time.
    await sweep.getByLabel("Sweep x from").fill("-10");
    await sweep.getByLabel("Sweep x to").fill("0");
    await sweep.getByLabel("Sweep x step").fill("1");
    await sweep.getByLabel("Sweep y from").fill("-25");
    await sweep.getByLabel("Sweep y to").fill("-15");
    await sweep.getByLabel("Sweep y step").fill("1");
    await sweep.getByRole("button", { name: "Run sweep" }).click();
    await sweep.getByRole("note").waitFor();
    expect(await sweep.getByRole("note").textContent()).toContain(
      "The best cell of a sweep flatters",
    );
    // Busy while rows are still being drawn; every row in the end.
    await sweep.locator(".sweep__maps[aria-busy='false']").waitFor({ timeout: 45_000 });
    const maps = sweep.locator(".sweep__map");
    expect(await maps.count()).toBe(2);
    expect(await maps.nth(0).locator("figcaption").textContent()).toContain(
      "In sample (first 70 %)",
    );
    expect(await maps.nth(1).locator("figcaption").textContent()).toContain(
      "Out of sample (last 30 %)",
    );
    // Computed in the browser's worker; the server's sweep of the same request agrees, cell by cell.
    const request = JSON.parse((await sweep.getAttribute("data-request")) ?? "{}");
    expect(request.sweep.x.from).toBe(-10);
    const server = await rest(page(), "POST", "/api/backtests/sweep", request);
    expect(server.status).toBe(200);
    const cells = server.json.cells as {
      x: number;
      y: number;
      inSample: { netInr: number };
      outOfSample: { netInr: number };
    }[];
    expect(cells).toHaveLength(121);
    // What a reader of each map gets: a cell's x from its column's header, its y from its row's,
    // its net ₹ as shown and as data-net, and its colour's direction.
    const shown = (map: number) =>
      maps
        .nth(map)
        .locator("table")
        .evaluate((table: HTMLTableElement) => {
          const xs = [...(table.tHead?.rows[0]?.cells ?? [])]
            .slice(1)
            .map((th) => Number(th.textContent));
          return [...(table.tBodies[0]?.rows ?? [])].flatMap((tr) =>
            [...tr.cells].slice(1).map((td, i) => ({
              x: xs[i],
              y: Number(tr.cells[0]?.textContent),
              net: Number(td.getAttribute("data-net")),
              text: td.textContent,
              tone: /--gain-/.test(td.className) ? 1 : /--loss-/.test(td.className) ? -1 : 0,
            })),
          );
        });
    const expected = (pick: (c: (typeof cells)[number]) => number) =>
      cells.map((c) => ({ x: c.x, y: c.y, net: pick(c), text: String(Math.round(pick(c))) }));
    for (const [map, pick] of [
      [0, (c: (typeof cells)[number]) => c.inSample.netInr],
      [1, (c: (typeof cells)[number]) => c.outOfSample.netInr],
    ] as const) {
      const table = await shown(map);
      // Rows are y ascending, columns x ascending: the server's order (y outer, x inner).
      expect(table.map(({ tone: _, ...cell }) => cell)).toEqual(expected(pick));
      // Green for a gain, red for a loss (uncoloured when near 0), never the wrong way round.
      for (const cell of table) expect(cell.tone * Math.sign(cell.net)).toBeGreaterThanOrEqual(0);
      expect(table.some((cell) => cell.tone !== 0)).toBe(true);
    }
    // The corner header names the two swept fields for a screen reader.
    expect(await maps.nth(0).locator("thead th").first().textContent()).toBe(
      "Buy back at down, Sell above across",
    );
    await expectAccessible(page(), "the sweep's heat maps", { within: sweep });
  });

  it('answers "How would this alert have done?" from an alert: its threshold as the entry', async () => {
    const p = page();
    const created = await rest(p, "POST", "/api/alerts", {
      commodityType: "GC_BUY",
      threshold: 25,
    });
    expect(created.status).toBeLessThan(300);
    await p.getByRole("link", { name: "Back to Dashboard" }).click();
    await p.getByRole("button", { name: "Show Alerts Section" }).click();
    await alertsPanel(p)
      .getByRole("button", { name: "How would this alert have done?" })
      .first()
      .click();
    await p.waitForURL(/advanced-chart/);
    // 25 is above the 20-day mean: a spread sold there and bought back at the mean.
    await expect.poll(() => panel().getByLabel("Sell above").inputValue()).toBe("25");
    expect(await panel().getByLabel("Buy back at").inputValue()).not.toBe("");
    await panel().getByTestId("backtest-result").waitFor();
  });
});
