// The README's two pictures of the dashboard on the simulator, as a trader with alerts sees it:
// docs/images/dashboard-desktop.png (1400 × 900) and docs/images/dashboard-phone.png (390 × 844,
// touch), both light. Not a test; run it again when the dashboard's look changes.
// Run (after `pnpm build`) from a throwaway vitest file in e2e/ that imports it: page.evaluate
// breaks under tsx's loader.
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { addAlertButton, rest } from "./alerts.ts";
import { createUsers, launchBrowser, login, newPage, startApp } from "./harness.ts";

const outDir = fileURLToPath(new URL("../../../docs/images", import.meta.url));
const SCREENS = [
  { name: "dashboard-desktop", width: 1400, height: 900, hasTouch: false },
  { name: "dashboard-phone", width: 390, height: 844, hasTouch: true },
] as const;

// SHOOT_URL: a server already running on the simulator with the e2e admin's password (a loaded
// machine may take longer to backfill the simulator's history than startApp waits).
const app = process.env.SHOOT_URL
  ? { url: process.env.SHOOT_URL, stop: async () => {} }
  : await startApp({ feed: "simulator" });
const browser = await launchBrowser();
try {
  await mkdir(outDir, { recursive: true });
  await createUsers(
    app.url,
    SCREENS.map(({ name }) => ({ username: name, password: "desk-secret", alerts_enabled: true })),
  );
  for (const { name, width, height, hasTouch } of SCREENS) {
    const page = await newPage(browser, { width, height, hasTouch });
    await login(page, app.url, name, "desk-secret");
    await addAlertButton(page, "GC_BUY").waitFor({ timeout: 60_000 });
    // One alert, so the Alerts column shows a bell as a trader's would.
    await rest(page, "POST", "/api/alerts", { commodityType: "GC_BUY", threshold: 100_000 });
    await page.reload();
    // A bell on a desktop; one bell with its count on a phone.
    await page.locator(".bell__badge, .bell__count").first().waitFor({ timeout: 30_000 });
    const file = `${outDir}/${name}.png`;
    await page.screenshot({ path: file, fullPage: false });
    console.log(file);
    await page.context().close();
  }
} finally {
  await browser.close();
  await app.stop();
}
