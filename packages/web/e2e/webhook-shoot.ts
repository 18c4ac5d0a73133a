// Screenshots of the Profile's Webhook section (set, with a test answer shown) at 1400×900 and
// 390×844, light and dark; for eyeballing, not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/webhook-shoot.ts [outDir]
import { mkdir } from "node:fs/promises";
import { FakeWebhook } from "../../api/test/fakes/fake-webhook.ts";
import { freshFixture } from "./fixtures.ts";
import { ADMIN, launchBrowser, login, newPage, startApp } from "./harness.ts";

const out = process.argv[2] ?? "/tmp/shots-webhook";
await mkdir(out, { recursive: true });
const receiver = await new FakeWebhook().start();
const app = await startApp(freshFixture({ WEBHOOK_ALLOW_PRIVATE: "true" }));
const browser = await launchBrowser();
try {
  for (const [width, height] of [
    [1400, 900],
    [390, 844],
  ] as const) {
    for (const colorScheme of ["light", "dark"] as const) {
      const tag = `${width}x${height}-${colorScheme}`;
      const page = await newPage(browser, { width, height, colorScheme, hasTouch: width < 500 });
      await login(page, app.url, ADMIN.username, ADMIN.password);
      await page.getByRole("link", { name: "Profile" }).click();
      const section = page.getByRole("region", { name: "Webhook" });
      await section.getByLabel("Webhook URL", { exact: true }).fill(receiver.url);
      await section.getByRole("button", { name: "Generate secret" }).click();
      await section.getByRole("button", { name: "Save", exact: true }).click();
      await section.locator("[data-webhook='set']").waitFor();
      await section.getByRole("button", { name: "Send test" }).click();
      await section.getByText(/Test delivered/).waitFor();
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${out}/webhook-${tag}.png` });
      await section.screenshot({ path: `${out}/webhook-section-${tag}.png` });
      await section.getByLabel("Webhook URL", { exact: true }).fill("ftp://example.com/");
      await section.getByRole("button", { name: "Save", exact: true }).click();
      await section.getByText(/must start with/).waitFor();
      await section.screenshot({ path: `${out}/webhook-error-${tag}.png` });
      await page.context().close();
    }
  }
} finally {
  await browser.close();
  await app.stop();
  await receiver.stop();
}
