import { describe, expect, it } from "vitest";
import { oldFixtureCsv } from "./fixtures.ts";
import { startApp } from "./harness.ts";
import { listedPositions, openDialog, openPositions } from "./positions.ts";
import { signedInSuite } from "./suite.ts";

// docs/user-guide.md "Positions (paper)" on a stale market: every price of the replay is from March
// 2024. The live entry is refused (the server's sentence shows in the form), a typed spread value
// or typed leg fills still open a position, and its mark is the last one, greyed with the leg
// named, as the spread rows grey theirs. GC_SELL at those prices is +104.07 (fixtures.ts works it
// out).
const WAIT = { timeout: 60_000 };
const SAM = { username: "sam", password: "sam-secret-1" };

const suite = signedInSuite({
  app: () => startApp({ feed: "replay", replayCsv: oldFixtureCsv() }),
  users: [SAM],
  as: SAM,
  open: { link: "Positions", path: "/positions" },
  waitFor: (page) => page.getByRole("button", { name: "Open position" }),
});

describe("positions on stale prices", () => {
  it("refuses the live entry with the server's reason, and opens nothing", async () => {
    const { page } = suite;
    await page.getByRole("button", { name: "Open position" }).click();
    const dialog = openDialog(page);
    await dialog.getByRole("button", { name: "Open position" }).click();
    const error = dialog.getByRole("alert");
    await error.waitFor();
    expect(await error.textContent()).toMatch(/live|stale/i);
    expect(await listedPositions(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
  });

  it("opens at a typed value, marked at the last GC_SELL and greyed with the leg named", async () => {
    const { page } = suite;
    await page.getByRole("button", { name: "Open position" }).click();
    const dialog = openDialog(page);
    await dialog.getByLabel("A spread value I type").check();
    await dialog.getByLabel("Entry value", { exact: true }).fill("100");
    await dialog.getByRole("button", { name: "Open position" }).click();
    await dialog.getByText(/^Opened BUY 1 × Gold at \+100\.00\./).waitFor();
    await dialog.getByRole("button", { name: "Done" }).click();
    const row = openPositions(page).locator("tr[data-spread='GC']");
    await row.waitFor();
    const mark = row.locator("[data-field='mark']");
    await expect.poll(() => mark.textContent(), WAIT).toBe("+104.07");
    expect(await mark.getAttribute("data-stale")).toBe("true");
    expect(await row.getAttribute("class")).toContain("row--greyed");
    expect(await mark.getAttribute("title")).toMatch(/^Last mark: .*GC.* (is|are) /);
  });

  it("opens at typed leg fills: the entry is the formula at them", async () => {
    const { page } = suite;
    await page.getByRole("button", { name: "Open position" }).click();
    const dialog = openDialog(page);
    await dialog.getByLabel("Sell the spread").check();
    await dialog.getByLabel("Each leg's fill price").check();
    // A leg price must be above 0: refused here, nothing sent.
    await dialog.getByLabel("m (GOLD) fill price").fill("-5");
    await dialog.getByRole("button", { name: "Open position" }).click();
    await dialog.getByText("Type m (GOLD)'s fill price, a number above 0.").waitFor();
    await dialog.getByLabel("m (GOLD) fill price").fill("75990");
    await dialog.getByLabel("c (GC) fill price").fill("2650");
    await dialog.getByLabel("fx (USDINR) fill price").fill("84");
    await dialog.getByRole("button", { name: "Open position" }).click();
    // 75990 − 2650 × 10/31.1034768 × 84 × 1.06 = +128.3844 (fixtures.ts, GC_BUY).
    await dialog.getByText(/^Opened SELL 1 × Gold at \+128\.38\./).waitFor();
    await dialog.getByRole("button", { name: "Done" }).click();
    const sell = (await listedPositions(page)).find((p) => p.side === "SELL");
    expect(sell?.entry).toBeCloseTo(128.3844, 4);
  });

  it("offers the form beside the chart's controls, for the charted spread and side", async () => {
    const { page, app } = suite;
    await page.goto(`${app.url}/advanced-chart`);
    await page.getByLabel("Commodity").selectOption("SI_SELL");
    await page.getByRole("button", { name: "Open position" }).click();
    const dialog = openDialog(page);
    expect(await dialog.getByLabel("Spread", { exact: true }).inputValue()).toBe("SI");
    expect(await dialog.getByLabel("Sell the spread").isChecked()).toBe(true);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
  });
});
