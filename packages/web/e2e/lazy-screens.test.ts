import type { Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { freshFixture } from "./fixtures.ts";
import { ADMIN, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

// The screens a first visit does not need load on demand (docs/decisions.md "What the first load
// carries"): each still opens by its link and by its address, its link fetches it before the
// click, and a chunk that cannot be fetched says so with a Reload instead of a blank page.

/** Requests for the Positions screen's chunk, from before the sign-in on. */
let positionsChunk: Request[] = [];

const suite = signedInSuite({
  app: () => startApp(freshFixture()),
  page: { colorScheme: "light" },
  beforeLogin: (page) => {
    positionsChunk = chunkRequests(page, "Positions");
  },
  as: ADMIN,
  waitFor: (page) => page.getByRole("table", { name: "Spread", exact: true }),
});

const heading = (page: Page, name: string) => page.getByRole("heading", { name, exact: true });

/** Each lazy screen's address and something only the loaded screen shows. */
const SCREENS: [string, (page: Page) => ReturnType<Page["getByRole"]>][] = [
  ["/positions", (page) => heading(page, "Open positions")],
  ["/profile", (page) => heading(page, "Profile Information")],
  ["/ticket/GC_BUY", (page) => page.getByRole("form", { name: "Order ticket" })],
  ["/admin", (page) => heading(page, "User List")],
  ["/admin/instruments", (page) => heading(page, "Instruments in use")],
  ["/admin/data", (page) => heading(page, "History coverage")],
  ["/advanced-chart", (page) => page.getByRole("region", { name: "Spread chart" })],
];

/** The requests for a chunk named `name` ("Positions" for assets/Positions-….js). */
function chunkRequests(page: Page, name: string): Request[] {
  const seen: Request[] = [];
  const pattern = new RegExp(`/assets/${name}-[\\w-]+\\.js$`);
  page.on("request", (request) => {
    if (pattern.test(request.url())) seen.push(request);
  });
  return seen;
}

describe("lazy screens", () => {
  it("fetch a screen's code when its link is pointed at, then open it on the click", async () => {
    const page = suite.page;
    const positions = positionsChunk;
    // The dashboard is up: nothing has asked for the Positions screen yet.
    expect(positions).toHaveLength(0);
    const link = page.getByRole("navigation", { name: "Account" }).getByRole("link", {
      name: "Positions",
      exact: true,
    });
    await link.hover();
    await expect.poll(() => positions.length).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe("/");
    await link.click();
    await heading(page, "Open positions").waitFor();
    expect(new URL(page.url()).pathname).toBe("/positions");
    // And the admin tabs, from one admin screen to the next.
    await page.goto(`${suite.app.url}/admin`);
    await heading(page, "User List").waitFor();
    const adminNav = page.getByRole("navigation", { name: "Admin pages" });
    await adminNav.getByRole("link", { name: "Data" }).click();
    await heading(page, "History coverage").waitFor();
    await adminNav.getByRole("link", { name: "Instruments" }).click();
    await heading(page, "Instruments in use").waitFor();
  });

  it("open each screen by its address", async () => {
    for (const [path, loaded] of SCREENS) {
      await suite.page.goto(`${suite.app.url}${path}`);
      await loaded(suite.page).waitFor();
      expect(new URL(suite.page.url()).pathname).toBe(path);
    }
  });

  it("say the code could not be loaded, with a Reload that brings the screen", async () => {
    const page = suite.page;
    const profileChunk = /\/assets\/Profile-[\w-]+\.js$/;
    // A redeploy replaced the chunk this page's entry names: its request fails.
    await page.route(profileChunk, (route) => route.abort());
    await page.goto(`${suite.app.url}/`);
    await page.getByRole("table", { name: "Spread", exact: true }).waitFor();
    await page
      .getByRole("navigation", { name: "Account" })
      .getByRole("link", { name: "Profile", exact: true })
      .click();
    const failed = page.getByRole("alert").filter({ hasText: "This screen could not be loaded" });
    await failed.waitFor();
    // The frame stays: the screen's header and the way back.
    await heading(page, "Profile").waitFor();
    await page.getByRole("link", { name: "Back to Dashboard" }).waitFor();
    await page.unroute(profileChunk);
    await page.getByRole("button", { name: "Reload" }).click();
    await heading(page, "Profile Information").waitFor();
    expect(new URL(page.url()).pathname).toBe("/profile");
  });
});
