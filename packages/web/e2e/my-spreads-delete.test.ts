import { describe, expect, it } from "vitest";
import { rest } from "./alerts.ts";
import { answerDialogs } from "./dialogs.ts";
import { A_DAY_OF_HISTORY, ADMIN, startApp } from "./harness.ts";
import { builder, mySpreads, ownSpreads, spreadGroup } from "./spreads.ts";
import { signedInSuite } from "./suite.ts";

// docs/user-guide.md "Spreads of your own": deleting a definition deletes every alert on it, other
// users' too. The question the admin answers must give the server's count (its 409 `{ alerts }`),
// not only the admin's own alerts, which on a shared spread may be none.
const TRADER = { username: "tess", password: "tess-secret", alerts_enabled: true };
const NAME = "Desk gold/silver";

const suite = signedInSuite({
  app: () => startApp({ feed: "simulator", env: A_DAY_OF_HISTORY }),
  users: [TRADER],
  as: ADMIN,
  waitFor: (page) => mySpreads(page).getByRole("button", { name: "New spread" }),
});

/** Signs the trader in over REST (not on the page, which is the admin's): their cookie. */
async function traderCookie(): Promise<string> {
  const login = await fetch(`${suite.app.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: TRADER.username, password: TRADER.password }),
  });
  expect(login.status).toBe(200);
  return login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** The trader's alerts' symbols, or sets one on `commodityType`. */
async function traderAlerts(cookie: string, commodityType?: string): Promise<string[]> {
  const url = `${suite.app.url}/api/alerts`;
  if (commodityType) {
    const created = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ commodityType, threshold: 1_000 }),
    });
    expect(created.status).toBe(200);
  }
  const listed = (await (await fetch(url, { headers: { cookie } })).json()) as {
    alerts: { commodityType: string }[];
  };
  return listed.alerts.map((alert) => alert.commodityType);
}

describe("deleting a shared spread other users alert on", () => {
  it("asks again with the server's count of alerts, and deletes them all", async () => {
    const { page } = suite;
    const created = await rest(page, "POST", "/api/spreads", {
      name: NAME,
      legs: [
        { name: "g", instrument: "GOLD" },
        { name: "s", instrument: "SILVER" },
      ],
      formula: "g / s",
      shared: true,
    });
    expect(created.status).toBe(201);
    const symbol = String(created.json.symbol);
    const trader = await traderCookie();
    await traderAlerts(trader, `${symbol}_BUY`);
    expect(await traderAlerts(trader, `${symbol}_SELL`)).toEqual([
      `${symbol}_BUY`,
      `${symbol}_SELL`,
    ]);

    await page.reload();
    const group = spreadGroup(page, NAME);
    await group.getByRole("button", { name: `Edit ${NAME}` }).click();
    const dialog = builder(page);
    // The admin has no alert on it; the server has the trader's two. Declined the second time:
    // nothing is deleted.
    const declined = answerDialogs(page, [true, false]);
    await dialog.getByRole("button", { name: "Delete" }).click();
    expect(await declined).toEqual([
      `Delete the spread “${NAME}”? No alert of yours uses it. Other users' alerts on it are deleted too.`,
      `2 alerts of other users use the spread “${NAME}”. Delete the spread and all 2 alerts?`,
    ]);
    expect((await ownSpreads(page)).some((s) => s.symbol === symbol)).toBe(true);
    // The server's 409 reached the builder as a question, not as an error.
    expect(await dialog.locator("[data-field='form-error']").count()).toBe(0);

    const accepted = answerDialogs(page, [true, true]);
    await dialog.getByRole("button", { name: "Delete" }).click();
    expect(await accepted).toHaveLength(2);
    await dialog.waitFor({ state: "detached" });
    await group.waitFor({ state: "detached" });
    expect((await ownSpreads(page)).some((s) => s.symbol === symbol)).toBe(false);
    expect(await traderAlerts(trader)).toEqual([]);
  });

  it("deletes a spread no alert uses after one question", async () => {
    const { page } = suite;
    const created = await rest(page, "POST", "/api/spreads", {
      name: "Unwatched ratio",
      legs: [
        { name: "g", instrument: "GOLD" },
        { name: "s", instrument: "SILVER" },
      ],
      formula: "g / s",
    });
    expect(created.status).toBe(201);
    await page.reload();
    const group = spreadGroup(page, "Unwatched ratio");
    await group.getByRole("button", { name: "Edit Unwatched ratio" }).click();
    const dialog = builder(page);
    const answered = answerDialogs(page, [true]);
    await dialog.getByRole("button", { name: "Delete" }).click();
    expect(await answered).toEqual([
      "Delete the spread “Unwatched ratio”? No alert of yours uses it.",
    ]);
    await dialog.waitFor({ state: "detached" });
    await page
      .getByRole("status")
      .getByText("Deleted “Unwatched ratio”.", { exact: true })
      .waitFor();
    expect((await ownSpreads(page)).some((s) => s.symbol === created.json.symbol)).toBe(false);
  });
});
