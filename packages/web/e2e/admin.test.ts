import { HEARTBEAT_MS } from "@spreadwatch/core";
import type { Browser, Dialog, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureCsv } from "./fixtures.ts";
import {
  ADMIN,
  createUsers,
  launchBrowser,
  login,
  newPage,
  type RunningApp,
  startApp,
} from "./harness.ts";
import { procedure, recordRequests } from "./requests.ts";

const LEAVER = { username: "leaver", password: "leaver-secret" };
const CONFIRM = "Are you sure you want to delete this user?";

let app: RunningApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  app = await startApp({ feed: "replay", replayCsv: fixtureCsv(Date.now() + 60_000) });
  await createUsers(app.url, [LEAVER]);
  browser = await launchBrowser();
  page = await newPage(browser);
  await login(page, app.url, ADMIN.username, ADMIN.password);
  await page.getByRole("link", { name: "Admin" }).click();
  await page.waitForURL(`${app.url}/admin`);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const row = (username: string) => page.locator(`tr[data-username='${username}']`);
const alertsToggle = (username: string) => row(username).getByRole("switch");
const form = () => page.getByRole("form", { name: "Add New User" });

async function addUser(username: string, password: string, options: { admin?: boolean } = {}) {
  await form().getByLabel("Username", { exact: true }).fill(username);
  await form().getByLabel("Password", { exact: true }).fill(password);
  if (options.admin) await form().getByLabel("Administrator").check();
  await form().getByRole("button", { name: "Add User" }).click();
}

/** Answers the next confirm() and reports what it asked. */
function answerNextDialog(accept: boolean): Promise<string> {
  return new Promise((resolve) => {
    page.once("dialog", (dialog: Dialog) => {
      resolve(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
    });
  });
}

describe("admin panel", () => {
  it("lays out user management and the system settings placeholder", async () => {
    for (const name of ["User Management", "Add New User", "User List", "System Settings"]) {
      await page.getByRole("heading", { name, exact: true }).waitFor();
    }
    await page.getByText("will be available in a future update").waitFor();
    const headers = page.getByRole("table", { name: "Users" }).locator("thead th");
    // The list arrives after the static headings: wait for it rather than read an empty table.
    await headers.first().waitFor();
    expect(await headers.allTextContents()).toEqual(["Username", "Role", "Alerts", "Actions"]);
    expect(await row(ADMIN.username).locator("[data-col='role']").textContent()).toBe("Admin");
    expect(await row(LEAVER.username).locator("[data-col='role']").textContent()).toBe("User");
    expect(await alertsToggle(LEAVER.username).textContent()).toBe("Disabled");
  });

  it("asks for username and password without sending a request", async () => {
    const sent = recordRequests(page, procedure("users.create"));
    await form().getByRole("button", { name: "Add User" }).click();
    await form().getByText("Username and password are required.", { exact: true }).waitFor();
    await form().getByLabel("Username", { exact: true }).fill("someone");
    await form().getByRole("button", { name: "Add User" }).click();
    await form().getByText("Username and password are required.", { exact: true }).waitFor();
    expect(sent).toEqual([]);
  });

  it("shows the server's sentence for a short password", async () => {
    await addUser("bob.trader", "short");
    await form().getByText("Password must be at least 8 characters", { exact: true }).waitFor();
  });

  it("creates a user, and the success message clears by itself", async () => {
    await addUser("bob.trader", "bob-secret-1");
    const success = form().getByText("User created successfully", { exact: true });
    await success.waitFor();
    await row("bob.trader").waitFor();
    expect(await row("bob.trader").locator("[data-col='role']").textContent()).toBe("User");
    expect(await alertsToggle("bob.trader").textContent()).toBe("Disabled");
    expect(await form().getByLabel("Username", { exact: true }).inputValue()).toBe("");
    await success.waitFor({ state: "detached", timeout: 10_000 });
  });

  it("shows the server's sentence for a taken username", async () => {
    await addUser("bob.trader", "bob-secret-2");
    await form().getByText('Username "bob.trader" already exists', { exact: true }).waitFor();
  });

  it("creates an administrator", async () => {
    await addUser("desk-lead", "desk-lead-secret", { admin: true });
    await row("desk-lead").waitFor();
    expect(await row("desk-lead").locator("[data-col='role']").textContent()).toBe("Admin");
  });

  it("toggles alerts, and the change survives a reload", async () => {
    await alertsToggle("bob.trader").click();
    await page.getByText("User permission updated successfully", { exact: true }).waitFor();
    await row("bob.trader")
      .getByRole("switch", { name: /Alerts/, checked: true })
      .waitFor();
    expect(await alertsToggle("bob.trader").textContent()).toBe("Enabled");
    await page.reload();
    await row("bob.trader").waitFor();
    expect(await alertsToggle("bob.trader").textContent()).toBe("Enabled");
    await alertsToggle("bob.trader").click();
    await row("bob.trader")
      .getByRole("switch", { name: /Alerts/, checked: false })
      .waitFor();
    expect(await alertsToggle("bob.trader").textContent()).toBe("Disabled");
  });

  it("refuses to delete your own account without asking or calling the server", async () => {
    const sent = recordRequests(page, procedure("users.delete"));
    let asked = false;
    const onDialog = () => {
      asked = true;
    };
    page.on("dialog", onDialog);
    await row(ADMIN.username).getByRole("button", { name: "Delete" }).click();
    await page.getByText("You cannot delete your own account.", { exact: true }).waitFor();
    page.off("dialog", onDialog);
    expect(asked).toBe(false);
    expect(sent).toEqual([]);
  });

  it("keeps the user when the confirmation is dismissed", async () => {
    const sent = recordRequests(page, procedure("users.delete"));
    const asked = answerNextDialog(false);
    await row("bob.trader").getByRole("button", { name: "Delete" }).click();
    expect(await asked).toBe(CONFIRM);
    expect(sent).toEqual([]);
    expect(await row("bob.trader").count()).toBe(1);
  });

  it("deletes a user after confirmation", async () => {
    const asked = answerNextDialog(true);
    await row("bob.trader").getByRole("button", { name: "Delete" }).click();
    expect(await asked).toBe(CONFIRM);
    await page.getByText("User deleted successfully", { exact: true }).waitFor();
    await row("bob.trader").waitFor({ state: "detached" });
  });

  it("sends a deleted user's open browser to /login, saying why", async () => {
    const leaverPage = await newPage(browser);
    await login(leaverPage, app.url, LEAVER.username, LEAVER.password);
    const asked = answerNextDialog(true);
    await row(LEAVER.username).getByRole("button", { name: "Delete" }).click();
    await asked;
    await page.getByText("User deleted successfully", { exact: true }).waitFor();
    await leaverPage.waitForURL(`${app.url}/login`, { timeout: HEARTBEAT_MS + 5_000 });
    await leaverPage.getByText("Your account has been deleted.", { exact: true }).waitFor();
    await leaverPage.context().close();
  });

  it("goes back to the dashboard", async () => {
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.waitForURL(`${app.url}/`);
  });
});
