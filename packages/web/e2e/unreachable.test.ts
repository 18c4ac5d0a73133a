import { describe, expect, it } from "vitest";
import { A_DAY_OF_HISTORY, ADMIN, type RestartableApp, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

// Waits are generous upper bounds for slow machines, not speed assertions (docs/design.md §7).
const WAIT = { timeout: 30_000 };

const suite = signedInSuite<RestartableApp>({
  app: () => startApp({ feed: "simulator", env: A_DAY_OF_HISTORY }),
  as: ADMIN,
  waitFor: (page) => page.locator("[data-stream='live']"),
});

const banner = () => suite.page.locator("[data-banner='unreachable']");

/** Everything on the page that claims a live connection or a live source. */
const liveClaims = () =>
  suite.page.locator("[data-stream='live'], .source-line [data-state='live']").count();

describe("the dashboard with the server unreachable", () => {
  it("has no banner while the server answers", async () => {
    await suite.page.locator(".source-line [data-state='live']").waitFor(WAIT);
    expect(await banner().count()).toBe(0);
  });

  it("says so prominently once the server is gone, and nothing says live", async () => {
    await suite.app.halt();
    await banner().waitFor(WAIT);
    expect(await banner().getAttribute("role")).toBe("alert");
    expect(await banner().textContent()).toMatch(/^Cannot reach the server/);
    expect(await suite.page.locator("[data-stream]").getAttribute("data-stream")).toBe("offline");
    expect(await suite.page.getByRole("status").textContent()).toBe("Offline");
    expect(await suite.page.locator(".source-line").textContent()).toBe(
      "Price sources: unknown, the server cannot be reached",
    );
    expect(await liveClaims()).toBe(0);
  });

  it("drops the banner and goes live again when the server is back", async () => {
    await suite.app.restart();
    await banner().waitFor({ state: "detached", ...WAIT });
    await suite.page.locator("[data-stream='live']").waitFor(WAIT);
    expect(await suite.page.getByRole("status").textContent()).toBe("Live");
    expect(await banner().count()).toBe(0);
  });
});
