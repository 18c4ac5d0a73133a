import { describe, expect, it } from "vitest";
import {
  addAlertButton,
  alertsPanel,
  bells,
  deleteAllAlertsByRest,
  modal,
  rest,
  spreadRow,
  thresholdInput,
  tooltipLines,
  trpcInput,
} from "./alerts.ts";
import { failPlay, playedSounds, spyOnAudio, startedTones } from "./audio-spy.ts";
import { answerDialogs, answerNextDialog } from "./dialogs.ts";
import { freshFixture } from "./fixtures.ts";
import { signIn, startApp } from "./harness.ts";
import { holdRequests, procedure, recordRequests } from "./requests.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedInSuite } from "./suite.ts";

// The fixture's spreads hold still here, so no alert fires: this file is about the alert UI.
// Firing is alert-firing.test.ts; Telegram on the profile is telegram.test.ts.

const ALICE = { username: "alice", password: "alice-secret", alerts_enabled: true };
const BOB = { username: "bob", password: "bob-secret", alerts_enabled: false };

const suite = signedInSuite({
  app: () => startApp(freshFixture()),
  users: [ALICE, BOB],
  beforeLogin: spyOnAudio,
  as: ALICE,
  waitFor: (page) => addAlertButton(page, "GC_BUY"),
});

const modalButton = (name: string) => modal(suite.page).getByRole("button", { name, exact: true });

/** Opens the Create modal on a row, fills it and creates the alert; returns what was sent. */
async function createInModal(
  symbol: string,
  threshold: string,
  options: { sound?: string; telegramLimit?: string } = {},
): Promise<Record<string, unknown>> {
  await addAlertButton(suite.page, symbol).click();
  await thresholdInput(suite.page).fill(threshold);
  if (options.sound) await modal(suite.page).getByLabel("Alert Sound").selectOption(options.sound);
  if (options.telegramLimit) {
    await modal(suite.page).getByLabel("Send Telegram Notification").check();
    await modal(suite.page).getByLabel("Notification Limit").selectOption(options.telegramLimit);
  }
  const sent = suite.page.waitForRequest(procedure("alerts.create"));
  await modalButton("Create Alert").click();
  await modal(suite.page).waitFor({ state: "detached" });
  return trpcInput(await sent);
}

describe("a user without alerts_enabled", () => {
  it("sees 'No alerts' in every row, no alerts section and no alert calls", async () => {
    const bobPage = await openPage(suite.browser);
    const listCalls = recordRequests(bobPage, procedure("alerts.list"));
    await signIn(bobPage, suite.app.url, BOB.username, BOB.password);
    await bobPage.locator("tr[data-symbol='GC_BUY'] [data-col='spread']").waitFor();
    const cells = await bobPage.locator("tr[data-symbol] [data-col='alerts']").allTextContents();
    expect(cells).toEqual(Array(10).fill("No alerts"));
    expect(await bobPage.getByRole("button", { name: /Alerts Section/ }).count()).toBe(0);
    expect(await bobPage.getByRole("button", { name: "Add new alert" }).count()).toBe(0);
    expect(listCalls).toEqual([]);
    await closePage(bobPage);
  });
});

describe("the create/edit modal", () => {
  it("offers a plus button on every row and no bells before any alert exists", async () => {
    expect(await suite.page.getByRole("button", { name: "Add new alert" }).count()).toBe(10);
    expect(await suite.page.locator("button.bell[data-alert-id]").count()).toBe(0);
  });

  it("opens Create Alert for the row with the spec's fields", async () => {
    await addAlertButton(suite.page, "SI_BUY").click();
    await modal(suite.page).getByRole("heading", { name: "Create Alert for SI_BUY" }).waitFor();
    const sound = modal(suite.page).getByLabel("Alert Sound");
    expect(await sound.locator("option").allTextContents()).toEqual([
      "Beep",
      "Chime",
      "Bell",
      "Alert",
    ]);
    expect(await sound.inputValue()).toBe("beep");
    await modal(suite.page).getByRole("button", { name: "Test sound" }).waitFor();
    expect(await modal(suite.page).getByLabel("Enable Alert").isChecked()).toBe(true);
    expect(await modal(suite.page).getByLabel("Send Telegram Notification").isChecked()).toBe(
      false,
    );
    expect(await modal(suite.page).getByLabel("Notification Limit").count()).toBe(0);
    await modal(suite.page).getByLabel("Send Telegram Notification").check();
    const limit = modal(suite.page).getByLabel("Notification Limit");
    expect(await limit.locator("option").allTextContents()).toEqual([
      "1 notification",
      "3 notifications",
      "5 notifications",
    ]);
    expect(await modalButton("Delete").count()).toBe(0);
    expect(await modalButton("Delete All").count()).toBe(0);
    await modalButton("Cancel").waitFor();
    await modalButton("Create Alert").waitFor();
  });

  it("lets only an optional minus, digits and one point into the threshold", async () => {
    const input = thresholdInput(suite.page);
    await input.fill("");
    await input.pressSequentially("-12a.3.4-5e");
    expect(await input.inputValue()).toBe("-12.345");
    await input.fill("");
    await input.pressSequentially("7-");
    expect(await input.inputValue()).toBe("7");
    // A paste is cleaned rather than refused.
    await input.fill("1,234.5x");
    expect(await input.inputValue()).toBe("1234.5");
  });

  it("refuses a threshold that is not a number, in an alert dialog, without a request", async () => {
    const sent = recordRequests(suite.page, procedure("alerts.create"));
    for (const text of ["", "-", "."]) {
      await thresholdInput(suite.page).fill(text);
      const message = answerNextDialog(suite.page);
      await modalButton("Create Alert").click();
      expect(await message).toBe("Please enter a valid number for the threshold.");
    }
    expect(sent).toEqual([]);
    await modal(suite.page).waitFor();
  });

  it("closes on Cancel without saving", async () => {
    const sent = recordRequests(suite.page, procedure("alerts.create"));
    await modalButton("Cancel").click();
    await modal(suite.page).waitFor({ state: "detached" });
    expect(sent).toEqual([]);
  });

  it("creates an alert, sending the limit as an integer, and shows an enabled bell", async () => {
    const input = await createInModal("SI_BUY", "-250.5", { sound: "chime", telegramLimit: "3" });
    expect(input).toEqual({
      commodityType: "SI_BUY",
      threshold: -250.5,
      soundId: "chime",
      telegramNotify: true,
      // Not in the spec's modal: the webhook channel, off unless ticked.
      webhookNotify: false,
      direction: "reaches",
      enabled: true,
      maxNotifications: 3,
      idempotencyKey: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const bell = bells(suite.page, "SI_BUY");
    await bell.waitFor();
    expect(await bell.getAttribute("class")).toContain("bell--on");
    expect(await bell.locator(".bell__badge").count()).toBe(1);
  });

  it("shows the alert's settings in the bell's tooltip", async () => {
    expect(await tooltipLines(suite.page, bells(suite.page, "SI_BUY"))).toEqual([
      "Threshold: -250.50",
      "Status: Enabled",
      "Sound: Chime",
      "Telegram: Yes",
      "Limit: 3",
      "Count: 0",
      "Telegram sent: 0/3",
    ]);
    await suite.page.mouse.move(0, 0);
    await suite.page.getByRole("tooltip").waitFor({ state: "detached" });
  });

  it("opens Edit Alert from the bell with the alert's values, and updates it", async () => {
    await bells(suite.page, "SI_BUY").click();
    await modal(suite.page).getByRole("heading", { name: "Edit Alert for SI_BUY" }).waitFor();
    expect(await thresholdInput(suite.page).inputValue()).toBe("-250.5");
    expect(await modal(suite.page).getByLabel("Alert Sound").inputValue()).toBe("chime");
    expect(await modal(suite.page).getByLabel("Send Telegram Notification").isChecked()).toBe(true);
    expect(await modal(suite.page).getByLabel("Notification Limit").inputValue()).toBe("3");
    await modalButton("Delete").waitFor();
    expect(await modalButton("Delete All").count()).toBe(0);

    await thresholdInput(suite.page).fill("-260");
    await modal(suite.page).getByLabel("Notification Limit").selectOption("1");
    await modal(suite.page).getByLabel("Enable Alert").uncheck();
    const sent = suite.page.waitForRequest(procedure("alerts.update"));
    await modalButton("Update Alert").click();
    await modal(suite.page).waitFor({ state: "detached" });
    const input = trpcInput(await sent);
    expect(input).toMatchObject({ threshold: -260, enabled: false, maxNotifications: null });

    const bell = bells(suite.page, "SI_BUY");
    await spreadRow(suite.page, "SI_BUY").locator("button.bell--off").waitFor();
    expect(await bell.locator(".bell__badge").count()).toBe(0);
    const lines = await tooltipLines(suite.page, bell);
    expect(lines.slice(0, 2)).toEqual(["Threshold: -260.00", "Status: Disabled"]);
    expect(lines).toContain("Limit: 1");
  });

  it("asks before deleting one alert, and keeps it when told no", async () => {
    await bells(suite.page, "SI_BUY").click();
    const asked = answerNextDialog(suite.page, false);
    await modalButton("Delete").click();
    expect(await asked).toBe("Are you sure you want to delete this alert?");
    await modal(suite.page).waitFor();
    expect(await bells(suite.page, "SI_BUY").count()).toBe(1);
    const confirmed = answerNextDialog(suite.page, true);
    await modalButton("Delete").click();
    await confirmed;
    await modal(suite.page).waitFor({ state: "detached" });
    await bells(suite.page, "SI_BUY").waitFor({ state: "detached" });
  });

  it("deletes all of a symbol's alerts after confirming, and says so", async () => {
    expect(await createInModal("CL_SELL", "-5")).toMatchObject({ maxNotifications: null });
    await createInModal("CL_SELL", "-2.5");
    await createInModal("CL_BUY", "4");
    await bells(suite.page, "CL_SELL").nth(1).waitFor();

    await bells(suite.page, "CL_SELL").first().click();
    await modalButton("Delete All").waitFor();
    const refused = answerNextDialog(suite.page, false);
    await modalButton("Delete All").click();
    expect(await refused).toBe("Are you sure you want to delete ALL alerts for CL_SELL?");
    expect(await bells(suite.page, "CL_SELL").count()).toBe(2);

    const dialogs = answerDialogs(suite.page, [true]);
    await modalButton("Delete All").click();
    expect(await dialogs).toEqual(["Are you sure you want to delete ALL alerts for CL_SELL?"]);
    // docs/decisions.md: the result is a message that clears itself, not a second dialog.
    await suite.page
      .getByRole("status")
      .filter({ hasText: "All alerts for CL_SELL have been deleted." })
      .waitFor();
    await modal(suite.page).waitFor({ state: "detached" });
    expect(await bells(suite.page, "CL_SELL").count()).toBe(0);
    expect(await bells(suite.page, "CL_BUY").count()).toBe(1);
  });

  it("shows the server's sentence in an alert dialog when it refuses", async () => {
    // 100 alerts is the per-user cap; one exists already (CL_BUY).
    await suite.page.evaluate(async () => {
      for (let i = 0; i < 99; i++) {
        await fetch("/api/alerts", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ commodityType: "NG_BUY", threshold: i, enabled: false }),
        });
      }
    });
    await addAlertButton(suite.page, "GC_SELL").click();
    await thresholdInput(suite.page).fill("50");
    const message = answerNextDialog(suite.page);
    await modalButton("Create Alert").click();
    expect(await message).toBe("You can have at most 100 alerts. Delete one to add another.");
    await modalButton("Cancel").click();
    await deleteAllAlertsByRest(suite.page);
    // Changes made behind the page's back show at the next 15 s poll; a reload is quicker.
    const listed = suite.page.waitForResponse(procedure("alerts.list"));
    await suite.page.reload();
    await listed;
    await addAlertButton(suite.page, "GC_SELL").waitFor();
    expect(await suite.page.locator("button.bell[data-alert-id]").count()).toBe(0);
  });

  it("says the save failed when the request cannot get through", async () => {
    await suite.page.route(procedure("alerts.create"), (route) => route.abort());
    await addAlertButton(suite.page, "GC_SELL").click();
    await thresholdInput(suite.page).fill("50");
    const message = answerNextDialog(suite.page);
    await modalButton("Create Alert").click();
    expect(await message).toBe("Failed to save alert. Please try again.");
    await suite.page.unroute(procedure("alerts.create"));
    await modalButton("Cancel").click();
  });

  it("says the delete failed when the request cannot get through", async () => {
    await createInModal("GC_SELL", "50");
    await suite.page.route(procedure("alerts.delete"), (route) => route.abort());
    await bells(suite.page, "GC_SELL").click();
    const dialogs = answerDialogs(suite.page, [true, true]);
    await modalButton("Delete").click();
    expect(await dialogs).toEqual([
      "Are you sure you want to delete this alert?",
      "Failed to delete alert",
    ]);
    await suite.page.unroute(procedure("alerts.delete"));
    await modalButton("Cancel").click();
    expect(await bells(suite.page, "GC_SELL").count()).toBe(1);
  });

  it("plays the chosen sound from the test-speaker button at the normal pitch", async () => {
    await addAlertButton(suite.page, "GC_SELL").click();
    await modal(suite.page).getByLabel("Alert Sound").selectOption("bell");
    const before = (await playedSounds(suite.page)).length;
    await modal(suite.page).getByRole("button", { name: "Test sound" }).click();
    await suite.page.waitForFunction(
      (n) => (window as never as { __played: [] }).__played.length > n,
      before,
    );
    expect((await playedSounds(suite.page)).at(-1)).toEqual({
      src: "/sounds/bell.wav",
      rate: 1,
      preservesPitch: false,
    });
    await modalButton("Cancel").click();
  });
});

describe("the alerts section", () => {
  const panel = () => alertsPanel(suite.page);
  const form = () => panel().getByRole("form");
  const item = (index = 0) => panel().locator("li.alert-item").nth(index);
  const field = (name: string, index = 0) => item(index).locator(`[data-field='${name}']`);

  it("is toggled by Show/Hide Alerts Section", async () => {
    expect(await panel().count()).toBe(0);
    await suite.page.getByRole("button", { name: "Show Alerts Section" }).click();
    await panel().waitFor();
    await suite.page.getByRole("region", { name: "Telegram Notifications" }).waitFor();
    await suite.page.getByRole("button", { name: "Hide Alerts Section" }).click();
    await panel().waitFor({ state: "detached" });
    await suite.page.getByRole("button", { name: "Show Alerts Section" }).click();
    await panel().waitFor();
  });

  it("lists the existing alert, with 2 decimals for gold", async () => {
    await item().waitFor();
    expect(await item().locator(".alert-item__title").textContent()).toBe(
      "Gold Sell reaches 50.00",
    );
    expect(await field("sound").textContent()).toBe("Beep");
    expect(await field("telegram").textContent()).toBe("Off");
    // Telegram off and no webhook: no server count or last delivery to show.
    expect(await field("telegram-limit").count()).toBe(0);
    expect(await field("last-telegram").count()).toBe(0);
    expect(await field("last-browser").textContent()).toBe("Never");
  });

  it("says when there are no alerts", async () => {
    const asked = answerNextDialog(suite.page, true);
    await item().getByRole("button", { name: "Delete" }).click();
    expect(await asked).toBe("Are you sure you want to delete this alert?");
    await panel()
      .getByText("No alerts configured. Add one to get started.", { exact: true })
      .waitFor();
    expect(await bells(suite.page, "GC_SELL").count()).toBe(0);
  });

  it("opens the form from Add Alert, with every commodity, 8 sounds and limits 1 to 5", async () => {
    await panel().getByRole("button", { name: "Add Alert" }).click();
    await form().waitFor();
    await panel().getByRole("button", { name: "Cancel" }).waitFor();
    const commodities = await form().getByLabel("Commodity").locator("option").allTextContents();
    expect(commodities).toHaveLength(10);
    expect(commodities).toEqual(
      expect.arrayContaining([
        "Gold Buy",
        "Silver Sell",
        "Copper Buy",
        "Natural Gas Sell",
        "Crude Oil Buy",
      ]),
    );
    expect(
      await form().getByLabel("Sound", { exact: true }).locator("option").allTextContents(),
    ).toEqual(["Beep", "Chime", "Bell", "Alert", "Ping", "Notification", "Ding", "Coin"]);
    await form().getByLabel("Send Telegram Notification").check();
    const limit = form().getByLabel("Telegram Notification Limit");
    expect(await limit.locator("option").allTextContents()).toEqual(["1", "2", "3", "4", "5"]);
    expect(await limit.inputValue()).toBe("1");
    expect(await form().getByLabel("Enable Alert").isChecked()).toBe(true);
  });

  it("shows an invalid threshold inline, without a request", async () => {
    const sent = recordRequests(suite.page, procedure("alerts.create"));
    await form().getByLabel("Threshold").fill("-");
    await form().getByRole("button", { name: "Create Alert" }).click();
    await panel()
      .getByRole("alert")
      .getByText("Please enter a valid number for the threshold.", { exact: true })
      .waitFor();
    expect(sent).toEqual([]);
  });

  it("creates an alert with the panel's limit field, 4 decimals for copper", async () => {
    await form().getByLabel("Commodity").selectOption({ label: "Copper Buy" });
    await form().getByLabel("Threshold").fill("0.1");
    await form().getByLabel("Sound", { exact: true }).selectOption("coin");
    await form().getByLabel("Telegram Notification Limit").selectOption("4");
    const sent = suite.page.waitForRequest(procedure("alerts.create"));
    await form().getByRole("button", { name: "Create Alert" }).click();
    expect(trpcInput(await sent)).toEqual({
      commodityType: "HG_BUY",
      threshold: 0.1,
      soundId: "coin",
      telegramNotify: true,
      direction: "reaches",
      enabled: true,
      telegramMaxNotifications: 4,
      // The alert form's fields (docs/user-guide.md, "Spread alerts"), at their defaults.
      metric: "spread",
      hysteresis: null,
      webhookNotify: false,
      idempotencyKey: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    await form().waitFor({ state: "detached" });
    await item().waitFor();
    expect(await panel().getByRole("alert").count()).toBe(0);
    expect(await item().locator(".alert-item__title").textContent()).toBe(
      "Copper Buy reaches 0.1000",
    );
    expect(await field("sound").textContent()).toBe("Coin");
    expect(await field("telegram").textContent()).toBe("On (Telegram not configured)");
    expect(await field("telegram-limit").textContent()).toBe("0/4");
    // The same list feeds the Spread table's bells.
    await bells(suite.page, "HG_BUY").waitFor();
  });

  it("keeps a panel-only sound and limit selectable in the modal", async () => {
    await bells(suite.page, "HG_BUY").click();
    expect(await modal(suite.page).getByLabel("Alert Sound").inputValue()).toBe("coin");
    expect(await modal(suite.page).getByLabel("Notification Limit").inputValue()).toBe("4");
    await modalButton("Cancel").click();
  });

  it("plays the alert's sound from Test, falling back to a tone when playback fails", async () => {
    await item().getByRole("button", { name: "Test" }).click();
    await suite.page.waitForFunction(() =>
      (window as never as { __played: { src: string }[] }).__played.some(
        (s) => s.src === "/sounds/coin.wav",
      ),
    );
    expect((await playedSounds(suite.page)).at(-1)).toMatchObject({
      src: "/sounds/coin.wav",
      rate: 1,
    });
    await failPlay(suite.page, true);
    const tones = (await startedTones(suite.page)).length;
    await item().getByRole("button", { name: "Test" }).click();
    await suite.page.waitForFunction(
      (n) => (window as never as { __tones: number[] }).__tones.length > n,
      tones,
    );
    expect((await startedTones(suite.page)).at(-1)).toBe(440);
    await failPlay(suite.page, false);
  });

  it("disables and enables an alert, and the bell follows", async () => {
    await item().getByRole("button", { name: "Disable" }).click();
    await item().locator(".state-badge").getByText("Disabled", { exact: true }).waitFor();
    await spreadRow(suite.page, "HG_BUY").locator("button.bell--off").waitFor();
    await item().getByRole("button", { name: "Enable" }).click();
    await item().locator(".state-badge").getByText("Enabled", { exact: true }).waitFor();
    await spreadRow(suite.page, "HG_BUY").locator("button.bell--on").waitFor();
  });

  it("says the toggle failed when the request cannot get through", async () => {
    await suite.page.route(procedure("alerts.update"), (route) => route.abort());
    await item().getByRole("button", { name: "Disable" }).click();
    await panel().getByText("Failed to toggle alert. Please try again.", { exact: true }).waitFor();
    await suite.page.unroute(procedure("alerts.update"));
    expect(await item().locator(".state-badge").textContent()).toBe("Enabled");
  });

  it("edits an alert in the panel's form", async () => {
    await item().getByRole("button", { name: "Edit" }).click();
    const edit = panel().getByRole("form", { name: "Edit Alert" });
    expect(await edit.getByLabel("Threshold").inputValue()).toBe("0.1");
    expect(await edit.getByLabel("Commodity").inputValue()).toBe("HG_BUY");
    expect(await edit.getByLabel("Telegram Notification Limit").inputValue()).toBe("4");
    await edit.getByLabel("Commodity").selectOption({ label: "Natural Gas Sell" });
    await edit.getByLabel("Threshold").fill("-0.25");
    await edit.getByLabel("Send Telegram Notification").uncheck();
    await edit.getByRole("button", { name: "Update Alert" }).click();
    await edit.waitFor({ state: "detached" });
    await item()
      .locator(".alert-item__title")
      .getByText("Natural Gas Sell reaches -0.2500", { exact: true })
      .waitFor();
    expect(await field("telegram").textContent()).toBe("Off");
    await bells(suite.page, "NG_SELL").waitFor();
    expect(await bells(suite.page, "HG_BUY").count()).toBe(0);
  });

  it("closes the form on the server's answer, not on the list's refetch", async () => {
    // The refetch rides in a batch with whatever else the screen asks for at that moment (the
    // statistics, a chart's candles): held here as a slow one would hold it.
    const release = await holdRequests(suite.page, procedure("alerts.list"));
    try {
      await panel().getByRole("button", { name: "Add Alert" }).click();
      await form().getByLabel("Commodity").selectOption({ label: "Silver Buy" });
      await form().getByLabel("Threshold").fill("1.5");
      await form().getByRole("button", { name: "Create Alert" }).click();
      await form().waitFor({ state: "detached" });
      // The answer is in the list, and so on the row's bells, while the refetch is still held.
      await panel()
        .locator(".alert-item__title")
        .getByText("Silver Buy reaches 1.50", { exact: true })
        .waitFor();
      await bells(suite.page, "SI_BUY").waitFor();
    } finally {
      release();
      await suite.page.unroute(procedure("alerts.list"));
    }
    const { json } = await rest(suite.page, "GET", "/api/alerts");
    const added = (json.alerts as { id: number; commodityType: string }[]).find(
      (each) => each.commodityType === "SI_BUY",
    );
    expect((await rest(suite.page, "DELETE", `/api/alerts/${added?.id}`)).status).toBe(200);
    await bells(suite.page, "SI_BUY").waitFor({ state: "detached", timeout: 30_000 });
    expect(await panel().locator("li.alert-item").count()).toBe(1);
  });

  it("says the delete failed when the request cannot get through", async () => {
    await suite.page.route(procedure("alerts.delete"), (route) => route.abort());
    const asked = answerNextDialog(suite.page, true);
    await item().getByRole("button", { name: "Delete" }).click();
    await asked;
    await panel().getByText("Failed to delete alert", { exact: true }).waitFor();
    await suite.page.unroute(procedure("alerts.delete"));
    expect(await panel().locator("li.alert-item").count()).toBe(1);
  });

  it("says the list failed to load when it cannot be fetched", async () => {
    await suite.page.route(procedure("alerts.list"), (route) => route.abort());
    await suite.page.reload();
    await suite.page.getByRole("button", { name: "Show Alerts Section" }).click();
    await panel()
      .getByText("Failed to load alerts. Please try again.", { exact: true })
      .waitFor({ timeout: 30_000 });
    await suite.page.unroute(procedure("alerts.list"));
  });

  it("says Telegram is not configured when the server has no bot token", async () => {
    await suite.page
      .getByRole("region", { name: "Telegram Notifications" })
      .getByText("Telegram is not configured on this server", { exact: true })
      .waitFor();
    await suite.page.getByRole("link", { name: "Profile" }).click();
    const section = suite.page.getByRole("region", { name: "Telegram Notifications" });
    await section.getByText("Telegram is not configured on this server", { exact: true }).waitFor();
    expect(await section.getByRole("button").count()).toBe(0);
  });
});
