import { describe, expect, it } from "vitest";
import { spreadTexts } from "./dashboard-page.ts";
import { A_DAY_OF_HISTORY, ADMIN, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

// Waits are generous upper bounds for slow machines, not speed assertions (docs/design.md §7).
const WAIT = { timeout: 20_000 };
const STREAM = /\/api\/trpc\/market\.onSnapshot/;

const suite = signedInSuite({
  app: () => startApp({ feed: "simulator", env: A_DAY_OF_HISTORY }),
  // The live stream cannot connect: the page must fall back to polling.
  beforeLogin: (page) => page.route(STREAM, (route) => route.abort()),
  as: ADMIN,
  waitFor: (page) => page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']"),
});

describe("dashboard while the live stream is down", () => {
  it("says it is polling", async () => {
    const status = suite.page.locator("[data-stream='interrupted']");
    await status.waitFor(WAIT);
    expect(await status.textContent()).toBe("Live stream interrupted — polling every 2 s");
  });

  it("keeps the spreads moving by polling", async () => {
    const before = await spreadTexts(suite.page);
    await suite.page.waitForFunction(
      (initial) =>
        [...document.querySelectorAll("tr[data-symbol] [data-col='spread']")].some(
          (c, i) => c.textContent !== initial[i],
        ),
      before,
      WAIT,
    );
    expect(await spreadTexts(suite.page)).not.toEqual(before);
    // Polling, not the stream, moved them.
    expect(await suite.page.locator("[data-stream]").getAttribute("data-stream")).toBe(
      "interrupted",
    );
  });

  it("goes live again once the stream is back", async () => {
    await suite.page.unroute(STREAM);
    await suite.page.locator("[data-stream='live']").waitFor(WAIT);
    expect(await suite.page.getByRole("status").textContent()).toBe("Live");
  });
});
