import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { freshFixture } from "./fixtures.ts";
import { login, startApp } from "./harness.ts";
import { procedure, recordRequests } from "./requests.ts";
import { browserNow } from "./shifted-clock.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedInSuite } from "./suite.ts";

const CAROL = { username: "carol", password: "carol-old-pass" };
const NEW_PASSWORD = "carol-new-pass";

const suite = signedInSuite({
  app: () => startApp(freshFixture()),
  users: [CAROL],
  page: { colorScheme: "light" },
  as: CAROL,
  // "then refuses the old password at login" goes on with the username the screen remembered.
  loginScreen: true,
  open: { link: "Profile", path: "/profile" },
});

const form = () => suite.page.getByRole("form", { name: "Change Password" });
const field = (label: string) => form().getByLabel(label, { exact: true });
const submit = () => form().getByRole("button", { name: "Update Password" }).click();
const theme = (p: Page) => p.evaluate(() => document.documentElement.dataset.theme);

async function savedDarkMode(p: Page): Promise<{ local: string | null; cookie?: string }> {
  const local = await p.evaluate(() => localStorage.getItem("darkMode"));
  const cookie = (await p.context().cookies()).find((c) => c.name === "darkMode");
  return { local, cookie: cookie?.value };
}

describe("profile", () => {
  it("shows the username and role, the dark-mode switch, Logout and the way back", async () => {
    expect(await suite.page.getByTestId("profile-username").textContent()).toBe(CAROL.username);
    expect(await suite.page.getByTestId("profile-role").textContent()).toBe("User");
    await suite.page.getByRole("switch", { name: "Dark mode" }).waitFor();
    await suite.page.getByRole("button", { name: "Logout" }).waitFor();
    expect(
      await suite.page.getByRole("link", { name: "Back to Dashboard" }).getAttribute("href"),
    ).toBe("/");
  });

  it("checks the form in order before sending anything", async () => {
    const sent = recordRequests(suite.page, procedure("auth.changePassword"));
    await submit();
    await form().getByText("Current password is required", { exact: true }).waitFor();
    await field("Current Password").fill(CAROL.password);
    await submit();
    await form().getByText("New password is required", { exact: true }).waitFor();
    await field("New Password").fill(NEW_PASSWORD);
    await field("Confirm New Password").fill(`${NEW_PASSWORD}x`);
    await submit();
    await form().getByText("New passwords do not match", { exact: true }).waitFor();
    expect(sent).toEqual([]);
  });

  it("shows the server's sentence for a wrong current password", async () => {
    await field("Current Password").fill("not-carols-password");
    await field("Confirm New Password").fill(NEW_PASSWORD);
    await submit();
    await form().getByText("Current password is incorrect", { exact: true }).waitFor();
  });

  it("says so when the network fails", async () => {
    await suite.page.route(procedure("auth.changePassword"), (route) => route.abort());
    await submit();
    await form().getByText("An error occurred. Please try again.", { exact: true }).waitFor();
    await suite.page.unroute(procedure("auth.changePassword"));
  });

  it("changes the password and keeps this session", async () => {
    await field("Current Password").fill(CAROL.password);
    await submit();
    const success = form().getByText("Password updated successfully", { exact: true });
    await success.waitFor();
    expect(await field("Current Password").inputValue()).toBe("");
    await success.waitFor({ state: "detached", timeout: 10_000 });
    await suite.page.reload();
    await suite.page.getByTestId("profile-username").waitFor();
    expect(suite.page.url()).toBe(`${suite.app.url}/profile`);
  });

  it("then refuses the old password at login and accepts the new one", async () => {
    await suite.page.getByRole("button", { name: "Logout" }).click();
    await suite.page.waitForURL(`${suite.app.url}/login`);
    await suite.page.getByLabel("Password", { exact: true }).fill(CAROL.password);
    await suite.page.getByRole("button", { name: "Login" }).click();
    await suite.page.getByText("Invalid username or password", { exact: true }).waitFor();
    await login(suite.page, suite.app.url, CAROL.username, NEW_PASSWORD);
  });
});

describe("dark mode", () => {
  it("starts from the OS preference and saves it as text in local storage and a cookie", async () => {
    // The page was opened with a light OS preference and nothing saved.
    expect(await theme(suite.page)).toBe("light");
    expect(await savedDarkMode(suite.page)).toEqual({ local: "false", cookie: "false" });
  });

  it("toggles on, saving both, with a one-year cookie for the whole site", async () => {
    await suite.page.goto(`${suite.app.url}/profile`);
    const toggle = suite.page.getByRole("switch", { name: "Dark mode" });
    expect(await toggle.getAttribute("aria-checked")).toBe("false");
    await toggle.click();
    expect(await toggle.getAttribute("aria-checked")).toBe("true");
    expect(await theme(suite.page)).toBe("dark");
    expect(await savedDarkMode(suite.page)).toEqual({ local: "true", cookie: "true" });
    const cookie = (await suite.page.context().cookies()).find((c) => c.name === "darkMode");
    expect(cookie?.path).toBe("/");
    expect(cookie?.sameSite).toBe("Lax");
    const days = ((cookie?.expires ?? 0) * 1000 - browserNow()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(366);
  });

  it("survives a reload", async () => {
    await suite.page.reload();
    await suite.page.getByRole("switch", { name: "Dark mode", checked: true }).waitFor();
    expect(await theme(suite.page)).toBe("dark");
  });

  it("applies on the dashboard and the login screen too", async () => {
    await suite.page.getByRole("link", { name: "Back to Dashboard" }).click();
    expect(await theme(suite.page)).toBe("dark");
    const background = await suite.page.evaluate(
      () => getComputedStyle(document.body).backgroundColor,
    );
    expect(background).toBe("rgb(12, 16, 21)");
    const loginPage = await openPage(suite.browser, { colorScheme: "light" });
    await loginPage.context().addCookies([{ name: "darkMode", value: "true", url: suite.app.url }]);
    await loginPage.goto(`${suite.app.url}/login`);
    await loginPage.getByRole("button", { name: "Login" }).waitFor();
    expect(await theme(loginPage)).toBe("dark");
    await closePage(loginPage);
  });

  it("toggles off again, saving both", async () => {
    await suite.page.goto(`${suite.app.url}/profile`);
    await suite.page.getByRole("switch", { name: "Dark mode" }).click();
    expect(await theme(suite.page)).toBe("light");
    expect(await savedDarkMode(suite.page)).toEqual({ local: "false", cookie: "false" });
    await suite.page.reload();
    await suite.page.getByRole("switch", { name: "Dark mode", checked: false }).waitFor();
  });

  it("prefers local storage to the cookie, and the cookie to the OS", async () => {
    const other = await openPage(suite.browser, { colorScheme: "dark" });
    await other.context().addCookies([{ name: "darkMode", value: "false", url: suite.app.url }]);
    await other.goto(`${suite.app.url}/login`);
    expect(await theme(other)).toBe("light");
    await other.evaluate(() => localStorage.setItem("darkMode", "true"));
    await other.reload();
    expect(await theme(other)).toBe("dark");
    await closePage(other);
  });

  it("follows a dark OS when nothing is saved, and saves that", async () => {
    const other = await openPage(suite.browser, { colorScheme: "dark" });
    await other.goto(`${suite.app.url}/login`);
    expect(await theme(other)).toBe("dark");
    expect(await savedDarkMode(other)).toEqual({ local: "true", cookie: "true" });
    await closePage(other);
  });
});
