// Screenshots of the alert modal, the alerts list and the webhook form with server channels
// (Telegram, Webhook, both, neither), for eyeballing layout and themes; not a test.
// Run: pnpm build && node --import tsx packages/web/e2e/alert-channels-shoot.ts [outDir]
import { FakeWebhook } from "../../api/test/fakes/fake-webhook.ts";
import { addAlertButton, alertsPanel, bells, modal, rest, spreadRow } from "./alerts.ts";
import { goldSwingCsv } from "./fixtures.ts";
import { createUsers, login, startApp } from "./harness.ts";
import { eachScreen, outDir, shoot } from "./shots.ts";

const receiver = await new FakeWebhook().start();
const app = await startApp({
  feed: "replay",
  replayCsv: goldSwingCsv(Date.now() + 5_000, 1_000),
  replaySpeed: 1,
  env: { WEBHOOK_ALLOW_PRIVATE: "true" },
});
const widths = [1400, 390];
const users = ["light", "dark"].flatMap((theme) =>
  widths.map((width) => ({
    username: `bot-${theme}-${width}`,
    password: "bot-trader-secret",
    alerts_enabled: true,
  })),
);
await createUsers(app.url, users);

const stop = async () => {
  await app.stop();
  await receiver.stop();
};

await eachScreen(
  900,
  stop,
  async (page, { width, colorScheme, tag }) => {
    page.on("dialog", (dialog) => void dialog.accept());
    await login(page, app.url, `bot-${colorScheme}-${width}`, "bot-trader-secret");
    await addAlertButton(page, "SI_SELL").waitFor();
    await rest(page, "PUT", "/api/webhook", {
      url: receiver.url,
      secret: "a-webhook-secret-for-the-bot",
    });
    for (const [commodityType, threshold, extra] of [
      ["GC_BUY", 100, { webhookNotify: true, telegramMaxNotifications: 3 }],
      ["GC_BUY", 150, {}],
      ["SI_SELL", -300, { telegramNotify: true, webhookNotify: true, telegramMaxNotifications: 5 }],
      ["HG_BUY", 0.1, { telegramNotify: true, telegramMaxNotifications: 2, soundId: "coin" }],
      ["CL_SELL", -4.25, { enabled: false }],
    ] as const) {
      await rest(page, "POST", "/api/alerts", { commodityType, threshold, ...extra });
    }
    // Past the first server firing of the webhook alert, so its count and time show.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { json } = await rest(page, "GET", "/api/alerts");
      const alerts = json.alerts as { webhookNotify: boolean; telegramNotificationCount: number }[];
      if (alerts.some((a) => a.webhookNotify && a.telegramNotificationCount > 0)) break;
      if (Date.now() > deadline) throw new Error("the webhook alert never fired");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await page.reload();
    if (width < 500) {
      // A phone lists the row's alerts in its sheet, each a tap from the edit modal.
      await spreadRow(page, "GC_BUY").locator("[data-alert-count]").click();
      await page.locator("dialog.sheet .row-details__alert button").first().click();
    } else await bells(page, "GC_BUY").first().click();
    await modal(page).getByRole("button", { name: "Update Alert" }).waitFor();
    await shoot(page, `channels-modal-edit-${tag}`, { fullPage: false });
    await modal(page).getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Show Alerts Section" }).click();
    const panel = alertsPanel(page);
    await panel.locator("li.alert-item").first().waitFor();
    await panel.getByRole("button", { name: "Test", exact: true }).first().click();
    await shoot(page, `channels-list-${tag}`, { selector: ".alerts-panel" });
    await panel.getByRole("button", { name: "Add Alert" }).click();
    await panel.getByLabel("Webhook", { exact: true }).check();
    await panel.locator("[data-field='webhook-hint']").waitFor();
    await shoot(page, `channels-form-${tag}`, { selector: ".alerts-panel" });
    await page
      .getByRole("navigation", { name: "Account" })
      .getByRole("link", { name: "Profile" })
      .click();
    const section = page.getByRole("region", { name: "Webhook" });
    await section.getByLabel("Webhook URL", { exact: true }).fill("ftp://hooks.example.com/h");
    await section.getByLabel("Secret", { exact: true }).fill("short");
    await section.getByRole("button", { name: "Save", exact: true }).click();
    await section.getByText(/must start with https/).waitFor();
    const file = `${outDir}/channels-webhook-form-${tag}.png`;
    await section.screenshot({ path: file });
    console.log(file);
  },
  { widths },
);
