import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureCsv } from "./fixtures.ts";
import {
  createUsers,
  launchBrowser,
  login,
  newPage,
  type RunningApp,
  startApp,
} from "./harness.ts";
import { procedure, recordRequests } from "./requests.ts";

const CAROL = { username: "carol", password: "carol-old-pass" };
const NEW_PASSWORD = "carol-new-pass";

let app: RunningApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  app = await startApp({ feed: "replay", replayCsv: fixtureCsv(Date.now() + 60_000) });
  await createUsers(app.url, [CAROL]);
  browser = await launchBrowser();
  page = await newPage(browser, { colorScheme: "light" });
  await login(page, app.url, CAROL.username, CAROL.password);
  await page.getByRole("link", { name: "Profile" }).click();
  await page.waitForURL(`${app.url}/profile`);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const form = () => page.getByRole("form", { name: "Change Password" });
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
    expect(await page.getByTestId("profile-username").textContent()).toBe(CAROL.username);
    expect(await page.getByTestId("profile-role").textContent()).toBe("User");
    await page.getByRole("switch", { name: "Dark mode" }).waitFor();
    await page.getByRole("button", { name: "Logout" }).waitFor();
    expect(await page.getByRole("link", { name: "Back to Dashboard" }).getAttribute("href")).toBe(
      "/",
    );
  });

  it("checks the form in order before sending anything", async () => {
    const sent = recordRequests(page, procedure("auth.changePassword"));
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
    await page.route(procedure("auth.changePassword"), (route) => route.abort());
    await submit();
    await form().getByText("An error occurred. Please try again.", { exact: true }).waitFor();
    await page.unroute(procedure("auth.changePassword"));
  });

  it("changes the password and keeps this session", async () => {
    await field("Current Password").fill(CAROL.password);
    await submit();
    const success = form().getByText("Password updated successfully", { exact: true });
    await success.waitFor();
    expect(await field("Current Password").inputValue()).toBe("");
    await success.waitFor({ state: "detached", timeout: 10_000 });
    await page.reload();
    await page.getByTestId("profile-username").waitFor();
    expect(page.url()).toBe(`${app.url}/profile`);
  });

  it("then refuses the old password at login and accepts the new one", async () => {
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${app.url}/login`);
    await page.getByLabel("Password", { exact: true }).fill(CAROL.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("Invalid username or password", { exact: true }).waitFor();
    await login(page, app.url, CAROL.username, NEW_PASSWORD);
  });
});

describe("dark mode", () => {
  it("starts from the OS preference and saves it as text in local storage and a cookie", async () => {
    // The page was opened with a light OS preference and nothing saved.
    expect(await theme(page)).toBe("light");
    expect(await savedDarkMode(page)).toEqual({ local: "false", cookie: "false" });
  });

  it("toggles on, saving both, with a one-year cookie for the whole site", async () => {
    await page.goto(`${app.url}/profile`);
    const toggle = page.getByRole("switch", { name: "Dark mode" });
    expect(await toggle.getAttribute("aria-checked")).toBe("false");
    await toggle.click();
    expect(await toggle.getAttribute("aria-checked")).toBe("true");
    expect(await theme(page)).toBe("dark");
    expect(await savedDarkMode(page)).toEqual({ local: "true", cookie: "true" });
    const cookie = (await page.context().cookies()).find((c) => c.name === "darkMode");
    expect(cookie?.path).toBe("/");
    expect(cookie?.sameSite).toBe("Lax");
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(366);
  });

  it("survives a reload", async () => {
    await page.reload();
    await page.getByRole("switch", { name: "Dark mode", checked: true }).waitFor();
    expect(await theme(page)).toBe("dark");
  });

  it("applies on the dashboard and the login screen too", async () => {
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    expect(await theme(page)).toBe("dark");
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(12, 16, 21)");
    const loginPage = await newPage(browser, { colorScheme: "light" });
    await loginPage.context().addCookies([{ name: "darkMode", value: "true", url: app.url }]);
    await loginPage.goto(`${app.url}/login`);
    await loginPage.getByRole("button", { name: "Login" }).waitFor();
    expect(await theme(loginPage)).toBe("dark");
    await loginPage.context().close();
  });

  it("toggles off again, saving both", async () => {
    await page.goto(`${app.url}/profile`);
    await page.getByRole("switch", { name: "Dark mode" }).click();
    expect(await theme(page)).toBe("light");
    expect(await savedDarkMode(page)).toEqual({ local: "false", cookie: "false" });
    await page.reload();
    await page.getByRole("switch", { name: "Dark mode", checked: false }).waitFor();
  });

  it("prefers local storage to the cookie, and the cookie to the OS", async () => {
    const other = await newPage(browser, { colorScheme: "dark" });
    await other.context().addCookies([{ name: "darkMode", value: "false", url: app.url }]);
    await other.goto(`${app.url}/login`);
    expect(await theme(other)).toBe("light");
    await other.evaluate(() => localStorage.setItem("darkMode", "true"));
    await other.reload();
    expect(await theme(other)).toBe("dark");
    await other.context().close();
  });

  it("follows a dark OS when nothing is saved, and saves that", async () => {
    const other = await newPage(browser, { colorScheme: "dark" });
    await other.goto(`${app.url}/login`);
    expect(await theme(other)).toBe("dark");
    expect(await savedDarkMode(other)).toEqual({ local: "true", cookie: "true" });
    await other.context().close();
  });
});
