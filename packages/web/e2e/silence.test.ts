import { describe, expect, it } from "vitest";
import { freshFixture } from "./fixtures.ts";
import { ADMIN, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

// Waits are generous upper bounds for slow machines, not speed assertions (docs/design.md §7).
const WAIT = { timeout: 20_000 };

// The replay plays its file at once (REPLAY_SPEED 0) and then says nothing: with the silence
// threshold at 1 s its health turns stale (docs/user-guide.md, "The dashboard": silence is noticed,
// per provider configurable), and the source line must stop calling it live.
const suite = signedInSuite({
  app: () => startApp(freshFixture({ FEED_SILENCE_SECONDS: "1" })),
  as: ADMIN,
  waitFor: (page) => page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']"),
});

describe("the source line when the feed goes silent", () => {
  it("says stale, not live", async () => {
    const replay = suite.page
      .getByRole("list", { name: "Price sources" })
      .locator("[data-provider='replay']");
    await replay.and(suite.page.locator("[data-state='stale']")).waitFor(WAIT);
    expect(await replay.textContent()).toMatch(/^Replay · stale · \d+ s ago$/);
    expect(await suite.page.locator(".source-line [data-state='live']").count()).toBe(0);
  });
});
