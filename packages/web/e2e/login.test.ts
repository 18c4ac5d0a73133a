import { describe, expect, it } from "vitest";
import { freshFixture } from "./fixtures.ts";
import { ADMIN, login, startApp } from "./harness.ts";
import { holdRequests, procedure, recordRequests } from "./requests.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedOutSuite } from "./suite.ts";

const TRADER = { username: "trader", password: "trader-secret" };

const suite = signedOutSuite({
  app: () => startApp(freshFixture()),
  users: [TRADER],
});

const username = () => suite.page.getByLabel("Username", { exact: true });
const password = () => suite.page.getByLabel("Password", { exact: true });
const loginButton = () => suite.page.getByRole("button", { name: /^(Login|Logging in\.\.\.)$/ });
const errorBox = () => suite.page.getByRole("alert");

describe("signed out", () => {
  it("shows Loading... while the auth status is fetched", async () => {
    const release = await holdRequests(suite.page, procedure("auth.status"));
    await suite.page.goto(`${suite.app.url}/profile`);
    await suite.page.getByText("Loading...", { exact: true }).waitFor();
    release();
    await suite.page.waitForURL(`${suite.app.url}/login`);
    await suite.page.unroute(procedure("auth.status"));
    expect(await suite.page.getByText("Loading...", { exact: true }).count()).toBe(0);
    expect(await loginButton().count()).toBe(1);
  });

  it("sends every guarded route to /login", async () => {
    for (const path of ["/", "/profile", "/advanced-chart", "/admin"]) {
      await suite.page.goto(`${suite.app.url}${path}`);
      await suite.page.waitForURL(`${suite.app.url}/login`);
      expect(await suite.page.locator("h1").textContent(), path).toBe("Commodity Prices Dashboard");
    }
  });

  it("asks for both fields without sending a request", async () => {
    const sent = recordRequests(suite.page, procedure("auth.login"));
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
    await suite.page.getByText("Invalid username or password", { exact: true }).waitFor();
    expect(suite.page.url()).toBe(`${suite.app.url}/login`);
  });

  it("says so when the network fails", async () => {
    await suite.page.route(procedure("auth.login"), (route) => route.abort());
    await password().fill(TRADER.password);
    await loginButton().click();
    await suite.page.getByText("Network error. Please try again.", { exact: true }).waitFor();
    await suite.page.unroute(procedure("auth.login"));
  });

  it("reads Logging in... and is disabled while the request runs", async () => {
    const release = await holdRequests(suite.page, procedure("auth.login"));
    await loginButton().click();
    await suite.page.getByRole("button", { name: "Logging in..." }).waitFor();
    expect(await loginButton().isDisabled()).toBe(true);
    release();
    await suite.page.waitForURL(`${suite.app.url}/`);
    await suite.page.unroute(procedure("auth.login"));
  });
});

describe("signed in as a trader", () => {
  it("shows the header: capitalised name, links, theme note, Logout — no Admin link", async () => {
    const account = suite.page.getByRole("navigation", { name: "Account" });
    expect(await account.getByTestId("account-user").textContent()).toBe("Trader");
    expect(await account.getByRole("link").allTextContents()).toEqual([
      "Profile",
      "Advanced Charts",
      "Positions",
      "Theme settings",
    ]);
    for (const name of ["Profile", "Theme settings"]) {
      expect(await account.getByRole("link", { name, exact: true }).getAttribute("href")).toBe(
        "/profile",
      );
    }
    await account.getByRole("button", { name: "Logout" }).waitFor();
  });

  it("remembers the username for the browser session", async () => {
    expect(await suite.page.evaluate(() => sessionStorage.getItem("username"))).toBe(
      TRADER.username,
    );
  });

  it("goes from /login back to the dashboard", async () => {
    await suite.page.goto(`${suite.app.url}/login`);
    await suite.page.waitForURL(`${suite.app.url}/`);
  });

  it("lands on / when visiting /admin", async () => {
    await suite.page.goto(`${suite.app.url}/admin`);
    await suite.page.waitForURL(`${suite.app.url}/`);
    await suite.page.getByTestId("account-user").waitFor();
  });

  it("reaches the advanced chart screen and comes back", async () => {
    await suite.page.getByRole("link", { name: "Advanced Charts" }).click();
    await suite.page.waitForURL(`${suite.app.url}/advanced-chart`);
    expect(await suite.page.locator("h1").textContent()).toBe("Advanced Spread Chart");
    await suite.page.getByRole("link", { name: "Back to Dashboard" }).click();
    await suite.page.waitForURL(`${suite.app.url}/`);
  });

  it("logs out to /login even when the logout call fails, with the username prefilled", async () => {
    const failed = recordRequests(suite.page, procedure("auth.logout"));
    await suite.page.route(procedure("auth.logout"), (route) => route.abort());
    await suite.page.getByRole("button", { name: "Logout" }).click();
    await suite.page.waitForURL(`${suite.app.url}/login`);
    expect(failed).toHaveLength(1);
    expect(await username().inputValue()).toBe(TRADER.username);
    expect(await password().inputValue()).toBe("");
    await suite.page.unroute(procedure("auth.logout"));
  });
});

describe("signed in as the admin", () => {
  it("shows the Admin link and the capitalised name", async () => {
    const adminPage = await openPage(suite.browser);
    await login(adminPage, suite.app.url, ADMIN.username, ADMIN.password);
    const account = adminPage.getByRole("navigation", { name: "Account" });
    expect(await account.getByTestId("account-user").textContent()).toBe("Admin");
    expect(await account.getByRole("link").allTextContents()).toEqual([
      "Profile",
      "Admin",
      "Advanced Charts",
      "Positions",
      "Theme settings",
    ]);
    await account.getByRole("link", { name: "Admin" }).click();
    await adminPage.waitForURL(`${suite.app.url}/admin`);
    await closePage(adminPage);
  });
});
