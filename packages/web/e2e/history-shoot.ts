// Screenshots of the alerts section's History tab (fired, held, a webhook retrying) at 1280
// and 390 px, light and dark; for eyeballing, not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/history-shoot.ts [outDir]
import { rmSync } from "node:fs";
import { historyDataDir, seedUserFirings } from "./alert-history-data.ts";
import { rest } from "./alerts.ts";
import { freshFixture } from "./fixtures.ts";
import { ADMIN, login, startApp } from "./harness.ts";
import { eachScreen, shoot } from "./shots.ts";

const dataDir = historyDataDir();
const app = await startApp(freshFixture({ DATA_DIR: dataDir }));
let seeded = false;

await eachScreen(
  900,
  async () => {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  },
  async (page, { tag }) => {
    await login(page, app.url, ADMIN.username, ADMIN.password);
    if (!seeded) {
      const { json } = await rest(page, "POST", "/api/alerts", {
        commodityType: "GC_BUY",
        threshold: 100,
      });
      const alertId = (json.alert as { id: number }).id;
      const base = Date.UTC(2026, 10, 23, 8, 32, 0);
      seedUserFirings(dataDir, [
        ...Array.from({ length: 4 }, (_, i) => ({
          username: ADMIN.username,
          alertId,
          value: 100 + i * 3.25,
          threshold: 100,
          direction: (i % 2 ? "below" : "above") as "above" | "below",
          firedAt: base - (i + 1) * 60_000,
          outbox: [["telegram", 0, "sent"]] as [string, number, "sent"][],
        })),
        {
          username: ADMIN.username,
          alertId,
          value: 2.31,
          threshold: 2,
          metric: "zscore",
          direction: "above",
          firedAt: base,
          outbox: [
            ["telegram", 0, "sent"],
            ["webhook", 2, "pending"],
          ],
        },
        {
          username: ADMIN.username,
          alertId,
          value: 96.5,
          threshold: 100,
          direction: "below",
          firedAt: base - 30_000,
          state: "held",
          note: "Held: MCX GOLD quote stale (no quote for 12 s)",
        },
      ]);
      seeded = true;
    }
    const toggle = page.getByRole("button", { name: /Show Alerts Section|Hide Alerts Section/ });
    await toggle.waitFor();
    if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
    await page.getByRole("tab", { name: "History", exact: true }).click();
    await page.getByRole("table", { name: "Alert history" }).waitFor();
    await shoot(page, `history-${tag}`);
  },
);
