import { describe, expect, it } from "vitest";
import { spreadTexts } from "./dashboard-page.ts";
import { A_DAY_OF_HISTORY, ADMIN, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

// Waits are generous upper bounds for slow machines, not speed assertions (docs/design.md §7).
const WAIT = { timeout: 15_000 };

const suite = signedInSuite({
  app: () => startApp({ feed: "simulator", env: A_DAY_OF_HISTORY }),
  as: ADMIN,
  // The flash is one of the things tested here: motion as a trader sees it by default.
  page: { reducedMotion: "no-preference" },
  waitFor: (page) => page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']"),
});

describe("dashboard with the simulator", () => {
  it("says the stream is live", async () => {
    await suite.page.locator("[data-stream='live']").waitFor(WAIT);
    expect(await suite.page.getByRole("status").textContent()).toBe("Live");
  });

  it("updates spreads as quotes arrive", async () => {
    const before = await spreadTexts(suite.page);
    expect(before.filter((t) => t !== "—")).toHaveLength(before.length);
    await suite.page.waitForFunction(
      (initial) => {
        const now = [...document.querySelectorAll("tr[data-symbol] [data-col='spread']")].map(
          (c) => c.textContent ?? "",
        );
        return now.some((text, i) => text !== initial[i]);
      },
      before,
      WAIT,
    );
  });

  it("flashes a spread cell that moved", async () => {
    const flashing = suite.page.locator("[data-col='spread'][data-highlight]").first();
    await flashing.waitFor(WAIT);
    expect(await flashing.getAttribute("class")).toMatch(/highlight-(increase|decrease)/);
  });

  it("keeps the raw prices fresh", async () => {
    const stale = await suite.page
      .locator("tr[data-key]")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-stale")));
    // Every instrument in use has a row: the fifteen built-in ones on a fresh server.
    expect(stale).toEqual(Array(15).fill("false"));
  });
});

describe("the source line with the simulator", () => {
  it("names the simulator as the one live source", async () => {
    const simulator = suite.page
      .getByRole("list", { name: "Price sources" })
      .locator("[data-provider='simulator'][data-state='live']");
    await simulator.waitFor(WAIT);
    expect(await simulator.textContent()).toMatch(/^Simulator · live · \d+ s ago$/);
    expect(await suite.page.locator(".source-line li").count()).toBe(1);
    expect(await suite.page.locator("tr[data-key] .price-tag").count()).toBe(0);
  });
});
