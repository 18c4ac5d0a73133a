import { HEARTBEAT_MS } from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { answerNextDialog } from "./dialogs.ts";
import { freshFixture } from "./fixtures.ts";
import { ADMIN, RETRY_RESET, signIn, startApp } from "./harness.ts";
import { procedure, recordRequests } from "./requests.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedInSuite } from "./suite.ts";

const LEAVER = { username: "leaver", password: "leaver-secret" };
const CONFIRM = "Are you sure you want to delete this user?";

const suite = signedInSuite({
  app: () => startApp(freshFixture()),
  users: [LEAVER],
  as: ADMIN,
  open: { link: "Admin", path: "/admin" },
});

const row = (username: string) => suite.page.locator(`tr[data-username='${username}']`);
const alertsToggle = (username: string) => row(username).getByRole("switch");
const form = () => suite.page.getByRole("form", { name: "Add New User" });

async function addUser(username: string, password: string, options: { admin?: boolean } = {}) {
  await form().getByLabel("Username", { exact: true }).fill(username);
  await form().getByLabel("Password", { exact: true }).fill(password);
  if (options.admin) await form().getByLabel("Administrator").check();
  await form().getByRole("button", { name: "Add User" }).click();
}

describe("admin panel", () => {
  it("lays out user management, and system settings that are real, not a stub", async () => {
    for (const name of ["User Management", "Add New User", "User List"]) {
      await suite.page.getByRole("heading", { name, exact: true }).waitFor();
    }
    expect(await suite.page.getByText("will be available in a future update").count()).toBe(0);
    await suite.page.getByRole("heading", { name: "System Settings" }).waitFor();
    const headers = suite.page.getByRole("table", { name: "Users" }).locator("thead th");
    // The list arrives after the static headings: wait for it rather than read an empty table.
    await headers.first().waitFor();
    expect(await headers.allTextContents()).toEqual(["Username", "Role", "Alerts", "Actions"]);
    expect(await row(ADMIN.username).locator("[data-col='role']").textContent()).toBe("Admin");
    expect(await row(LEAVER.username).locator("[data-col='role']").textContent()).toBe("User");
    expect(await alertsToggle(LEAVER.username).textContent()).toBe("Disabled");
  });

  it("switches live orders off for everyone and on again from System Settings", async () => {
    const liveOrders = suite.page.getByRole("switch", { name: /Live orders through Kite/ });
    const serverSays = async () =>
      (
        await suite.page.request.get(`${suite.app.url}/api/admin/live-orders`, RETRY_RESET)
      ).json() as Promise<{
        enabled: boolean;
      }>;
    const before = (await serverSays()).enabled;
    await expect.poll(() => liveOrders.getAttribute("aria-checked")).toBe(String(before));
    await liveOrders.click();
    await expect.poll(async () => (await serverSays()).enabled).toBe(!before);
    await expect.poll(() => liveOrders.getAttribute("aria-checked")).toBe(String(!before));
    await liveOrders.click();
    await expect.poll(async () => (await serverSays()).enabled).toBe(before);
  });

  it("asks for username and password without sending a request", async () => {
    const sent = recordRequests(suite.page, procedure("users.create"));
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
    await suite.page.getByText("User permission updated successfully", { exact: true }).waitFor();
    await row("bob.trader")
      .getByRole("switch", { name: /Alerts/, checked: true })
      .waitFor();
    expect(await alertsToggle("bob.trader").textContent()).toBe("Enabled");
    await suite.page.reload();
    await row("bob.trader").waitFor();
    expect(await alertsToggle("bob.trader").textContent()).toBe("Enabled");
    await alertsToggle("bob.trader").click();
    await row("bob.trader")
      .getByRole("switch", { name: /Alerts/, checked: false })
      .waitFor();
    expect(await alertsToggle("bob.trader").textContent()).toBe("Disabled");
  });

  it("refuses to delete your own account without asking or calling the server", async () => {
    const sent = recordRequests(suite.page, procedure("users.delete"));
    let asked = false;
    const onDialog = () => {
      asked = true;
    };
    suite.page.on("dialog", onDialog);
    await row(ADMIN.username).getByRole("button", { name: "Delete" }).click();
    await suite.page.getByText("You cannot delete your own account.", { exact: true }).waitFor();
    suite.page.off("dialog", onDialog);
    expect(asked).toBe(false);
    expect(sent).toEqual([]);
  });

  it("keeps the user when the confirmation is dismissed", async () => {
    const sent = recordRequests(suite.page, procedure("users.delete"));
    const asked = answerNextDialog(suite.page, false);
    await row("bob.trader").getByRole("button", { name: "Delete" }).click();
    expect(await asked).toBe(CONFIRM);
    expect(sent).toEqual([]);
    expect(await row("bob.trader").count()).toBe(1);
  });

  it("deletes a user after confirmation", async () => {
    const asked = answerNextDialog(suite.page, true);
    await row("bob.trader").getByRole("button", { name: "Delete" }).click();
    expect(await asked).toBe(CONFIRM);
    await suite.page.getByText("User deleted successfully", { exact: true }).waitFor();
    await row("bob.trader").waitFor({ state: "detached" });
  });

  it("sends a deleted user's open browser to /signIn, saying why", async () => {
    const leaverPage = await openPage(suite.browser);
    await signIn(leaverPage, suite.app.url, LEAVER.username, LEAVER.password);
    const asked = answerNextDialog(suite.page, true);
    await row(LEAVER.username).getByRole("button", { name: "Delete" }).click();
    await asked;
    await suite.page.getByText("User deleted successfully", { exact: true }).waitFor();
    await leaverPage.waitForURL(`${suite.app.url}/login`, { timeout: HEARTBEAT_MS + 5_000 });
    const said = leaverPage.getByText("Your account has been deleted.", { exact: true });
    await said.waitFor();
    expect(new URL(leaverPage.url()).pathname).toBe("/login");
    expect(await said.count()).toBe(1);
    await closePage(leaverPage);
  });

  it("goes back to the dashboard", async () => {
    await suite.page.getByRole("link", { name: "Back to Dashboard" }).click();
    await suite.page.waitForURL(`${suite.app.url}/`);
    expect(await suite.page.locator("h1").textContent()).toBe("Commodity Prices Dashboard");
  });
});
