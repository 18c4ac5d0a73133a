import { describe, expect, it } from "vitest";
import { answerNextDialog } from "./dialogs.ts";
import { freshFixture } from "./fixtures.ts";
import { startApp, telegramEnv } from "./harness.ts";
import { procedure, recordRequests } from "./requests.ts";
import { signedInSuite } from "./suite.ts";

const ERIN = { username: "erin", password: "erin-secret", alerts_enabled: true };
const CHAT_ID = "987654321";
const REFUSED_CHAT_ID = "111";

const suite = signedInSuite({
  telegram: { refuseChats: [REFUSED_CHAT_ID] },
  app: ({ telegram }) => startApp(freshFixture(telegramEnv(telegram.apiRoot))),
  users: [ERIN],
  as: ERIN,
  open: { link: "Profile", path: "/profile" },
});

const section = () => suite.page.getByRole("region", { name: "Telegram Notifications" });
const button = (name: string) => section().getByRole("button", { name, exact: true });
const chatIdField = () => section().getByLabel("Chat ID", { exact: true });
const text = (value: string) => section().getByText(value, { exact: true });

describe("Telegram on the profile", () => {
  it("offers the setup while not connected", async () => {
    await button("Setup Telegram Notifications").waitFor();
    await section().locator("[data-telegram='disconnected']").waitFor();
    expect(await chatIdField().count()).toBe(0);
    expect(await button("Send Test Message").count()).toBe(0);
  });

  it("opens the steps naming the configured bot, and a Chat ID field", async () => {
    await button("Setup Telegram Notifications").click();
    const steps = await section().locator("ol.steps > li").allTextContents();
    expect(steps).toEqual([
      "Open Telegram and start a chat with @spreadwatch_bot.",
      "Send /start to @spreadwatch_bot.",
      "Get your Chat ID, for example by sending any message to @userinfobot.",
      "Paste the Chat ID below and press Connect Telegram.",
    ]);
    expect(
      await section().getByRole("link", { name: "@spreadwatch_bot" }).getAttribute("href"),
    ).toBe("https://t.me/spreadwatch_bot");
    await chatIdField().waitFor();
    await button("Connect Telegram").waitFor();
  });

  it("closes the setup on Cancel", async () => {
    await button("Cancel").click();
    await chatIdField().waitFor({ state: "detached" });
    await button("Setup Telegram Notifications").click();
  });

  it("asks for a Chat ID before sending anything", async () => {
    const sent = recordRequests(suite.page, procedure("telegram.connect"));
    await chatIdField().fill("   ");
    await button("Connect Telegram").click();
    await text("Please enter your Telegram Chat ID.").waitFor();
    expect(sent).toEqual([]);
  });

  it("shows Telegram's refusal of a chat it does not know", async () => {
    await chatIdField().fill(REFUSED_CHAT_ID);
    await button("Connect Telegram").click();
    await text("Telegram: Bad Request: chat not found").waitFor();
    await button("Connect Telegram").waitFor();
  });

  it("says the connect failed when the request cannot get through", async () => {
    await suite.page.route(procedure("telegram.connect"), (route) => route.abort());
    await chatIdField().fill(CHAT_ID);
    await button("Connect Telegram").click();
    await text("Failed to connect Telegram").waitFor();
    await suite.page.unroute(procedure("telegram.connect"));
  });

  it("connects with the trimmed Chat ID, confirmed in Telegram", async () => {
    const received = suite.telegram.received.length;
    await chatIdField().fill(`  ${CHAT_ID}  `);
    await button("Connect Telegram").click();
    const success = text(
      "Telegram connected successfully! Check your Telegram for a confirmation message.",
    );
    await success.waitFor();
    await suite.telegram.waitFor(received + 1);
    expect(suite.telegram.received.at(-1)?.chatId).toBe(CHAT_ID);
    await section().locator("[data-telegram='connected']").waitFor();
    await button("Send Test Message").waitFor();
    await button("Disconnect Telegram").waitFor();
    expect(await chatIdField().count()).toBe(0);
    // Success messages clear themselves after 3 s (docs/spec.md §8).
    await success.waitFor({ state: "detached", timeout: 10_000 });
  });

  it("sends a test message", async () => {
    const received = suite.telegram.received.length;
    await button("Send Test Message").click();
    await text("Test message sent! Check your Telegram.").waitFor();
    await suite.telegram.waitFor(received + 1);
    expect(suite.telegram.received.at(-1)?.chatId).toBe(CHAT_ID);
    expect(suite.telegram.received.at(-1)?.text).toContain("Test message");
  });

  it("says the test failed when the request cannot get through", async () => {
    await suite.page.route(procedure("telegram.test"), (route) => route.abort());
    await button("Send Test Message").click();
    await text("Failed to send test message").waitFor();
    await suite.page.unroute(procedure("telegram.test"));
  });

  it("shows the connection on the dashboard's Telegram panel too", async () => {
    await suite.page.getByRole("link", { name: "Back to Dashboard" }).click();
    await suite.page.getByRole("button", { name: "Show Alerts Section" }).click();
    const panel = suite.page.getByRole("region", { name: "Telegram Notifications" });
    await panel.locator("[data-telegram='connected']").waitFor();
    await panel.getByRole("link", { name: "Manage Telegram in Profile" }).click();
    await suite.page.waitForURL(`${suite.app.url}/profile`);
  });

  it("asks before disconnecting, and stays connected when told no", async () => {
    const sent = recordRequests(suite.page, procedure("telegram.disconnect"));
    const asked = answerNextDialog(suite.page, false);
    await button("Disconnect Telegram").click();
    expect(await asked).toBe(
      "Are you sure you want to disconnect Telegram? You will no longer receive alert notifications.",
    );
    expect(sent).toEqual([]);
    await button("Disconnect Telegram").waitFor();
  });

  it("says the disconnect failed when the request cannot get through", async () => {
    await suite.page.route(procedure("telegram.disconnect"), (route) => route.abort());
    const asked = answerNextDialog(suite.page, true);
    await button("Disconnect Telegram").click();
    await asked;
    await text("Failed to disconnect Telegram").waitFor();
    await suite.page.unroute(procedure("telegram.disconnect"));
    // Still connected: the button to disconnect is still there.
    expect(await button("Disconnect Telegram").count()).toBe(1);
  });

  it("disconnects after confirming", async () => {
    const asked = answerNextDialog(suite.page, true);
    await button("Disconnect Telegram").click();
    await asked;
    await text("Telegram disconnected successfully").waitFor();
    await button("Setup Telegram Notifications").waitFor();
    await section().locator("[data-telegram='disconnected']").waitFor();
    expect(await button("Disconnect Telegram").count()).toBe(0);
  });

  it("says so when the status cannot be checked", async () => {
    await suite.page.route(procedure("telegram.status"), (route) => route.abort());
    await suite.page.reload();
    const failed = text("Failed to check Telegram status. Please try again.");
    await failed.waitFor({ timeout: 30_000 });
    await suite.page.unroute(procedure("telegram.status"));
    expect(await failed.count()).toBe(1);
  });
});
