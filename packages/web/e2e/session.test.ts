import { HEARTBEAT_MS } from "@spreadwatch/core";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshFixture } from "./fixtures.ts";
import { login, startApp } from "./harness.ts";
import { procedure, recordRequests } from "./requests.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedOutSuite } from "./suite.ts";

const TRADER = { username: "trader", password: "trader-secret" };
const TERMINATED =
  "Your session was terminated because you logged in from another device or browser. For security, we only allow one active session at a time.";
const OTHERS_LOGGED_OUT = "You have been logged out from other devices or browsers.";
// "Within one heartbeat": the next beat after the other login, plus room for a slow machine.
const ONE_HEARTBEAT = { timeout: HEARTBEAT_MS + 5_000 };

const suite = signedOutSuite({
  app: () => startApp(freshFixture()),
  users: [TRADER],
  page: false,
});

/** Two browsers (separate contexts: no shared cookies or storage) for the same user. */
async function twoBrowsers(): Promise<[Page, Page]> {
  const first = await openPage(suite.browser);
  await login(first, suite.app.url, TRADER.username, TRADER.password);
  const second = await openPage(suite.browser);
  return [first, second];
}

describe("one active session per user", () => {
  let first: Page;
  let second: Page;

  beforeAll(async () => {
    [first, second] = await twoBrowsers();
  });

  afterAll(async () => {
    await closePage(first);
    await closePage(second);
  });

  it("the first login ended nothing, so it shows no notice", async () => {
    await first.getByTestId("account-user").waitFor();
    expect(await first.getByText(OTHERS_LOGGED_OUT).count()).toBe(0);
  });

  it("a second browser signing in is told the other one was logged out", async () => {
    await login(second, suite.app.url, TRADER.username, TRADER.password);
    const notice = second.getByText(OTHERS_LOGGED_OUT, { exact: true });
    await notice.waitFor();
    await second.getByRole("button", { name: "Dismiss" }).click();
    await notice.waitFor({ state: "detached" });
  });

  it("sends the first browser to /login within one heartbeat, saying why", async () => {
    await first.waitForURL(`${suite.app.url}/login`, ONE_HEARTBEAT);
    await first.getByText(TERMINATED, { exact: true }).waitFor();
  });

  it("still says why after a reload (the server remembers the ended session)", async () => {
    await first.reload();
    await first.getByText(TERMINATED, { exact: true }).waitFor();
    expect(first.url()).toBe(`${suite.app.url}/login`);
  });

  it("the second browser stays signed in", async () => {
    await second.reload();
    await second.getByTestId("account-user").waitFor();
    expect(second.url()).toBe(`${suite.app.url}/`);
  });

  it("signing in again replaces the other browser in turn", async () => {
    await login(first, suite.app.url, TRADER.username, TRADER.password);
    await first.getByText(OTHERS_LOGGED_OUT, { exact: true }).waitFor();
    await second.waitForURL(`${suite.app.url}/login`, ONE_HEARTBEAT);
    await second.getByText(TERMINATED, { exact: true }).waitFor();
  });
});

describe("a call with an ended session", () => {
  it("sends the browser to /login at once, without waiting for the heartbeat", async () => {
    const [first, second] = await twoBrowsers();
    await first.getByRole("link", { name: "Profile" }).click();
    await first.waitForURL(`${suite.app.url}/profile`);
    // Heartbeats cannot reach the server, so only the failed call itself can tell the page.
    await first.route(procedure("auth.heartbeat"), (route) => route.abort());
    await login(second, suite.app.url, TRADER.username, TRADER.password);

    const calls = recordRequests(first, procedure("auth.changePassword"));
    await first.getByLabel("Current Password", { exact: true }).fill(TRADER.password);
    await first.getByLabel("New Password", { exact: true }).fill("another-secret");
    await first.getByLabel("Confirm New Password", { exact: true }).fill("another-secret");
    await first.getByRole("button", { name: "Update Password" }).click();
    await first.waitForURL(`${suite.app.url}/login`);
    await first.getByText(TERMINATED, { exact: true }).waitFor();
    expect(calls).toHaveLength(1);

    // The password did not change: the ended session could not change it.
    await login(first, suite.app.url, TRADER.username, TRADER.password);
    await closePage(first);
    await closePage(second);
  });
});

// The pages tests close are handed to the worker's next test (spare-page.ts): a handed-on page
// must carry nothing of the last one's, or a test could pass on what an earlier one left.
describe("a page handed on to the next test", () => {
  it("keeps no session, storage, listener, init script or route of the test before", async () => {
    const used = await openPage(suite.browser);
    await login(used, suite.app.url, TRADER.username, TRADER.password);
    await used.evaluate(() => localStorage.setItem("left-behind", "1"));
    const heard: string[] = [];
    used.on("console", (message) => heard.push(message.text()));
    await used.addInitScript(() => {
      (window as unknown as { leftBehind?: boolean }).leftBehind = true;
    });
    await used.route("**/api/prices", (route) => route.fulfill({ status: 599, body: "{}" }));
    await closePage(used);

    const next = await openPage(suite.browser);
    try {
      expect(next).toBe(used);
      expect(next.url()).toBe("about:blank");
      expect(await next.context().cookies()).toEqual([]);
      await next.goto(`${suite.app.url}/login`);
      await next.getByRole("button", { name: "Login" }).waitFor();
      expect(await next.evaluate(() => localStorage.getItem("left-behind"))).toBeNull();
      expect(await next.evaluate(() => "leftBehind" in window)).toBe(false);
      await next.evaluate(() => console.log("after the hand-over"));
      const prices = await next.evaluate(async () => (await fetch("/api/prices")).status);
      expect(prices).not.toBe(599);
      expect(heard).toEqual([]);
    } finally {
      await closePage(next);
    }
  });
});
