// Screenshots of the alert screens for eyeballing layout and themes; not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/alerts-shoot.ts [outDir]
import { FakeTelegram } from "../../api/test/fake-telegram.ts";
import { addAlertButton, bells, modal, popup, rest, thresholdInput } from "./alerts.ts";
import { goldSwingCsv } from "./fixtures.ts";
import { createUsers, login, startApp, telegramEnv } from "./harness.ts";
import { eachScreen, shoot } from "./shots.ts";

const telegram = await new FakeTelegram().start();
const app = await startApp({
  feed: "replay",
  replayCsv: goldSwingCsv(Date.now() + 5_000, 1_000),
  replaySpeed: 1,
  env: telegramEnv(telegram.apiRoot, "123456:shoot-token"),
});
const users = ["light", "dark"].flatMap((theme) =>
  [1280, 390].map((width) => ({
    username: `trader-${theme}-${width}`,
    password: "trader-secret",
    alerts_enabled: true,
  })),
);
await createUsers(app.url, users);

const stop = async () => {
  await app.stop();
  await telegram.stop();
};
const viewport = { fullPage: false };

await eachScreen(900, stop, async (page, { width, colorScheme, tag }) => {
  const user = `trader-${colorScheme}-${width}`;
  page.on("dialog", (dialog) => void dialog.accept());
  await login(page, app.url, user, "trader-secret");
  await addAlertButton(page, "GC_BUY").waitFor();
  for (const [commodityType, threshold, extra] of [
    ["SI_SELL", -300, { enabled: false }],
    ["HG_BUY", 0.1, { telegramNotify: true, telegramMaxNotifications: 3, soundId: "coin" }],
    ["CL_SELL", -4.25, {}],
  ] as const) {
    await rest(page, "POST", "/api/alerts", { commodityType, threshold, ...extra });
  }
  await page.reload();
  await addAlertButton(page, "GC_BUY").click();
  await thresholdInput(page).fill("100");
  await modal(page).getByLabel("Send Telegram Notification").check();
  await shoot(page, `alerts-modal-create-${tag}`, viewport);
  await modal(page).getByRole("button", { name: "Create Alert" }).click();
  await popup(page).waitFor({ timeout: 30_000 });
  await bells(page, "GC_BUY").first().hover();
  await page.getByRole("tooltip").waitFor();
  await shoot(page, `alerts-dashboard-${tag}`, viewport);
  await bells(page, "HG_BUY").first().click();
  await shoot(page, `alerts-modal-edit-${tag}`, viewport);
  await modal(page).getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Show Alerts Section" }).click();
  await page
    .getByRole("region", { name: "Spread Alerts" })
    .getByRole("button", { name: "Add Alert" })
    .click();
  await page
    .getByRole("region", { name: "Spread Alerts" })
    .getByLabel("Send Telegram Notification")
    .check();
  await shoot(page, `alerts-section-${tag}`);
  await page.getByRole("link", { name: "Profile", exact: true }).click();
  await page.getByRole("button", { name: "Setup Telegram Notifications" }).click();
  await shoot(page, `telegram-setup-${tag}`);
  await page.getByLabel("Chat ID").fill("987654321");
  await page.getByRole("button", { name: "Connect Telegram" }).click();
  await page.getByRole("button", { name: "Send Test Message" }).waitFor();
  await shoot(page, `telegram-connected-${tag}`);
});
