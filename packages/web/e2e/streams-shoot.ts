// Screenshots of the dashboard with greyed spread rows (a crossed MCX GOLD book, a missing MCX
// NATURALGAS bid; then every quote old) and with the server unreachable, light and dark, 1280
// and 390 px wide. Not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/streams-shoot.ts [outDir]
import type { Page } from "playwright-core";
import { crossedGoldFixture, oldFixtureCsv } from "./fixtures.ts";
import { ADMIN, login, type StartOptions, startApp } from "./harness.ts";
import { eachScreen, shoot } from "./shots.ts";

const WAIT = { timeout: 30_000 };

async function signIn(page: Page, url: string): Promise<void> {
  page.on("pageerror", (e) => console.error("pageerror:", e));
  await login(page, url, ADMIN.username, ADMIN.password);
  await page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']").waitFor(WAIT);
}

/** Hover on a wide screen, a tap on a narrow one: either shows the reason. */
async function showReason(page: Page, symbol: string, width: number): Promise<void> {
  const badge = page.locator(`tr[data-symbol='${symbol}'] .leg-warning`);
  await badge.scrollIntoViewIfNeeded();
  if (width > 600) await badge.hover();
  else await badge.click();
  await page.getByRole("tooltip").waitFor(WAIT);
}

/** On an app started with `options`, the reason `symbol` is greyed, as greyed-`name`-<screen>. */
async function shootReason(options: StartOptions, symbol: string, name: string): Promise<void> {
  const app = await startApp(options);
  await eachScreen(
    900,
    () => app.stop(),
    async (page, { tag, width }) => {
      await signIn(page, app.url);
      await showReason(page, symbol, width);
      await shoot(page, `greyed-${name}-${tag}`, { fullPage: width > 600 });
    },
  );
}

await shootReason(crossedGoldFixture(), "GC_BUY", "crossed");
await shootReason({ feed: "replay", replayCsv: oldFixtureCsv() }, "XAUUSD", "stale");

const app = await startApp({ feed: "simulator" });
let halted = false;
await eachScreen(
  900,
  () => app.stop(),
  async (page, { tag }) => {
    if (halted) await app.restart();
    await signIn(page, app.url);
    await page.locator("[data-stream='live']").waitFor(WAIT);
    await app.halt();
    halted = true;
    await page.locator("[data-banner='unreachable']").waitFor(WAIT);
    await shoot(page, `unreachable-${tag}`, { fullPage: false });
  },
);
