import type { Browser, Page } from "playwright-core";
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
import { holdRequests, procedure, recordRequests } from "./requests.ts";

const TRADER = { username: "trader", password: "trader-secret" };

let app: RunningApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  app = await startApp({ feed: "replay", replayCsv: fixtureCsv(Date.now() + 60_000) });
  await createUsers(app.url, [TRADER]);
  browser = await launchBrowser();
  page = await newPage(browser);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const username = () => page.getByLabel("Username", { exact: true });
const password = () => page.getByLabel("Password", { exact: true });
const loginButton = () => page.getByRole("button", { name: /^(Login|Logging in\.\.\.)$/ });
const errorBox = () => page.getByRole("alert");

describe("signed out", () => {
  it("shows Loading... while the auth status is fetched", async () => {
    const release = await holdRequests(page, procedure("auth.status"));
    await page.goto(`${app.url}/profile`);
    await page.getByText("Loading...", { exact: true }).waitFor();
    release();
    await page.waitForURL(`${app.url}/login`);
    await page.unroute(procedure("auth.status"));
  });

  it("sends every guarded route to /login", async () => {
    for (const path of ["/", "/profile", "/advanced-chart", "/admin"]) {
      await page.goto(`${app.url}${path}`);
      await page.waitForURL(`${app.url}/login`);
      expect(await page.locator("h1").textContent(), path).toBe("Commodity Prices Dashboard");
    }
  });

  it("asks for both fields without sending a request", async () => {
    const sent = recordRequests(page, procedure("auth.login"));
    await loginButton().click();
    expect(await errorBox().textContent()).toBe("Please enter both username and password");
    await username().fill(TRADER.username);
    await loginButton().click();
    expect(await errorBox().textContent()).toBe("Please enter both username and password");
    await username().fill("");
    await password().fill(TRADER.password);
    await loginButton().click();
    expect(await errorBox().textContent()).toBe("Please enter both username and password");
    expect(sent).toEqual([]);
  });

  it("shows the server's sentence for a wrong password", async () => {
    await username().fill(TRADER.username);
    await password().fill("not-the-password");
    await loginButton().click();
    await page.getByText("Invalid username or password", { exact: true }).waitFor();
    expect(page.url()).toBe(`${app.url}/login`);
  });

  it("says so when the network fails", async () => {
    await page.route(procedure("auth.login"), (route) => route.abort());
    await password().fill(TRADER.password);
    await loginButton().click();
    await page.getByText("Network error. Please try again.", { exact: true }).waitFor();
    await page.unroute(procedure("auth.login"));
  });

  it("reads Logging in... and is disabled while the request runs", async () => {
    const release = await holdRequests(page, procedure("auth.login"));
    await loginButton().click();
    await page.getByRole("button", { name: "Logging in..." }).waitFor();
    expect(await loginButton().isDisabled()).toBe(true);
    release();
    await page.waitForURL(`${app.url}/`);
    await page.unroute(procedure("auth.login"));
  });
});

describe("signed in as a trader", () => {
  it("shows the header: capitalised name, links, theme note, Logout — no Admin link", async () => {
    const account = page.getByRole("navigation", { name: "Account" });
    expect(await account.getByTestId("account-user").textContent()).toBe("Trader");
    expect(await account.getByRole("link").allTextContents()).toEqual([
      "Profile",
      "Advanced Charts",
    ]);
    expect(await account.getByRole("link", { name: "Profile" }).getAttribute("href")).toBe(
      "/profile",
    );
    await account.getByText("Theme settings are in Profile").waitFor();
    await account.getByRole("button", { name: "Logout" }).waitFor();
  });

  it("remembers the username for the browser session", async () => {
    expect(await page.evaluate(() => sessionStorage.getItem("username"))).toBe(TRADER.username);
  });

  it("goes from /login back to the dashboard", async () => {
    await page.goto(`${app.url}/login`);
    await page.waitForURL(`${app.url}/`);
  });

  it("lands on / when visiting /admin", async () => {
    await page.goto(`${app.url}/admin`);
    await page.waitForURL(`${app.url}/`);
    await page.getByTestId("account-user").waitFor();
  });

  it("reaches the advanced chart screen and comes back", async () => {
    await page.getByRole("link", { name: "Advanced Charts" }).click();
    await page.waitForURL(`${app.url}/advanced-chart`);
    expect(await page.locator("h1").textContent()).toBe("Advanced Spread Chart");
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.waitForURL(`${app.url}/`);
  });

  it("logs out to /login even when the logout call fails, with the username prefilled", async () => {
    const failed = recordRequests(page, procedure("auth.logout"));
    await page.route(procedure("auth.logout"), (route) => route.abort());
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${app.url}/login`);
    expect(failed).toHaveLength(1);
    expect(await username().inputValue()).toBe(TRADER.username);
    expect(await password().inputValue()).toBe("");
    await page.unroute(procedure("auth.logout"));
  });
});

describe("signed in as the admin", () => {
  it("shows the Admin link and the capitalised name", async () => {
    const adminPage = await newPage(browser);
    await login(adminPage, app.url, ADMIN.username, ADMIN.password);
    const account = adminPage.getByRole("navigation", { name: "Account" });
    expect(await account.getByTestId("account-user").textContent()).toBe("Admin");
    expect(await account.getByRole("link").allTextContents()).toEqual([
      "Profile",
      "Admin",
      "Advanced Charts",
    ]);
    await account.getByRole("link", { name: "Admin" }).click();
    await adminPage.waitForURL(`${app.url}/admin`);
    await adminPage.context().close();
  });
});
