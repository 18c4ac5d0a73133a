// Screenshots of the Profile's Webhook section (set, with a test answer shown) at 1400×900 and
// 390×844, light and dark; for eyeballing, not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/webhook-shoot.ts [outDir]
import { FakeWebhook } from "../../api/test/fakes/fake-webhook.ts";
import { freshFixture } from "./fixtures.ts";
import { ADMIN, login, startApp } from "./harness.ts";
import { eachScreen, outDir as out } from "./shots.ts";

const receiver = await new FakeWebhook().start();
const app = await startApp(freshFixture({ WEBHOOK_ALLOW_PRIVATE: "true" }));
const stop = async () => {
  await app.stop();
  await receiver.stop();
};

await eachScreen(
  900,
  stop,
  async (page, { tag }) => {
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
  },
  { widths: [1400, 390], touchWhenNarrow: true },
);
