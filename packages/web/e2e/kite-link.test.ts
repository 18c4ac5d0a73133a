import { afterAll, describe, expect, it } from "vitest";
import { FakeKite } from "../../api/test/fakes/fake-kite.ts";
import { freshFixture } from "./fixtures.ts";
import { RETRY_RESET, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

// Profile → Connect Kite (docs/user-guide.md "Live orders"): the trader's own Kite session for live orders,
// linked through Kite's login (a fake Kite on loopback), shown with its expiry, disconnected.
const CAROL = { username: "carol", password: "carol-pass-123" };
let kite: FakeKite | undefined;
afterAll(() => kite?.stop());

const suite = signedInSuite({
  app: async () => {
    kite = await new FakeKite().start();
    kite.requestTokens.set("req-carol", "tok-carol");
    kite.requestUsers.set("req-carol", "CA1234");
    return startApp(freshFixture(kite.env()));
  },
  users: [CAROL],
  page: { colorScheme: "light", width: 1400, height: 900 },
  as: CAROL,
  open: { link: "Profile", path: "/profile" },
});

describe("Connect Kite", () => {
  it("links the trader's own Kite and shows until when, then disconnects", async () => {
    const { page, app } = suite;
    const status = page.getByTestId("kite-link-status");
    await expect.poll(() => status.textContent()).toContain("Not connected");
    expect(await page.getByTestId("kite-live-orders").textContent()).toContain("Off");
    const connect = page.getByRole("link", { name: "Connect Kite" });
    expect(await connect.getAttribute("href")).toBe("/api/profile/kite/login");
    // What the link does: Kite's login with our state, then Kite's redirect back.
    const login = await page.request.get(`${app.url}/api/profile/kite/login`, {
      maxRedirects: 0,
      ...RETRY_RESET,
    });
    const back = new URLSearchParams(
      new URL(login.headers().location as string).searchParams.get("redirect_params") ?? "",
    );
    await page.goto(
      `${app.url}/api/kite/callback?request_token=req-carol&state=${back.get("state")}&for=profile`,
    );
    await page.waitForURL("**/profile?kite=connected");
    await expect.poll(() => status.textContent()).toMatch(/Connected as CA1234 until .*IST/);
    if (process.env.SHOTS_DIR)
      for (const width of [1400, 390])
        for (const scheme of ["light", "dark"] as const) {
          await page.setViewportSize({ width, height: 900 });
          await page.emulateMedia({ colorScheme: scheme });
          await page.evaluate((s) => {
            document.documentElement.dataset.theme = s;
          }, scheme);
          await page.getByTestId("kite-link").scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${process.env.SHOTS_DIR}/kite-${width}-${scheme}.png` });
        }
    await page.getByRole("button", { name: "Disconnect" }).click();
    await expect.poll(() => status.textContent()).toContain("Not connected");
  });
});
