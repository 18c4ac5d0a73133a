// Screenshots of every screen for eyeballing layout and themes; not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/shoot.ts [outDir]
import { fixtureCsv, oldFixtureCsv } from "./fixtures.ts";
import { ADMIN, createUsers, login, startApp } from "./harness.ts";
import { eachScreen, shoot } from "./shots.ts";

// SHOOT_FEED: "replay" (the e2e fixture, default), "old" (the same quotes from 2024) or "simulator".
const feed = process.env.SHOOT_FEED ?? "replay";

const app = await startApp(
  feed === "simulator"
    ? { feed: "simulator" }
    : { feed: "replay", replayCsv: feed === "old" ? oldFixtureCsv() : fixtureCsv(Date.now()) },
);
await createUsers(app.url, [
  { username: "priya.trader", password: "priya-secret", alerts_enabled: true },
  { username: "desk-ops", password: "desk-ops-secret", is_admin: true },
]);

await eachScreen(
  800,
  () => app.stop(),
  async (page, { tag }) => {
    await page.goto(`${app.url}/login`);
    await page.getByRole("button", { name: "Login" }).waitFor();
    await shoot(page, `login-${tag}`);
    await page.getByRole("button", { name: "Login" }).click();
    await shoot(page, `login-error-${tag}`);
    await login(page, app.url, ADMIN.username, ADMIN.password);
    await page.locator("[data-symbol='GC_BUY'] [data-col='spread']").waitFor();
    await shoot(page, `dashboard-${tag}`, { fullPage: false });
    await page.getByRole("link", { name: "Admin" }).click();
    await page.locator("tr[data-username='priya.trader']").waitFor();
    await shoot(page, `admin-${tag}`);
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.getByRole("link", { name: "Profile" }).click();
    await page.getByRole("button", { name: "Update Password" }).click();
    await shoot(page, `profile-${tag}`);
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.getByRole("link", { name: "Advanced Charts" }).click();
    await shoot(page, `chart-${tag}`);
    // A login elsewhere (here: the REST API as the same admin) ends this session.
    await createUsers(app.url, []);
    await page.reload();
    await page.waitForURL(`${app.url}/login`);
    await page.getByText("Your session was terminated", { exact: false }).waitFor();
    await shoot(page, `login-expired-${tag}`);
  },
);
