import { describe, expect, it } from "vitest";
import { GC_PARITY_BID } from "./chart-fixtures.ts";
import { ADMIN, startApp } from "./harness.ts";
import { recordStreamInputs } from "./requests.ts";
import { signedInSuite } from "./suite.ts";

/** The chart's stream carries only the shown symbol (docs/http-api.md, "Live stream"). */
const now = Date.now();
const CSV = [
  "ts,source,key,bid,ask,price",
  `${now},fx,USDINR,,,84`,
  `${now},cme,GC,2000,2000.5,`,
  `${now},mcx,GOLD,${(GC_PARITY_BID - 5).toFixed(6)},${(GC_PARITY_BID + 5).toFixed(6)},`,
  `${now},cme,SI,31,31.05,`,
  `${now},spot,XAUUSD,,,1990`,
  "",
].join("\n");

/** Generous upper bounds for a loaded machine, past the run's 15 s poll default (vitest.config.ts). */
const LOADED = { timeout: 60_000 };

/** The decoded `input` of every market.onSnapshot request the page made, in order. */
const streams: Array<unknown> = [];

const suite = signedInSuite({
  app: () => startApp({ feed: "replay", replayCsv: CSV }),
  beforeLogin: (page) => recordStreamInputs(page, streams),
  as: ADMIN,
});

describe("the live stream a screen asks for", () => {
  it("is everything on the dashboard and only the chart's symbol on the chart", async () => {
    const { page, app } = suite;
    await page.goto(`${app.url}/`);
    await expect.poll(() => streams.length, LOADED).toBeGreaterThan(0);
    expect(streams.at(-1)).toBeUndefined();

    await page.goto(`${app.url}/advanced-chart`);
    await expect.poll(() => streams.at(-1), LOADED).toEqual({ symbols: ["GC_BUY"] });
    // The screen still gets its live value: the chart draws a candle at the stream's GC_BUY.
    await page.waitForFunction(() => (window.__spreadChart?.data[0].length ?? 0) > 0);

    await page.getByLabel("Commodity").selectOption("XAU_SPOT");
    await expect.poll(() => streams.at(-1), LOADED).toEqual({ keys: ["GC", "XAUUSD"] });
    // Back on the dashboard (in the app, same cache) the whole market streams again and shows.
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await expect.poll(() => streams.at(-1), LOADED).toBeUndefined();
    await expect.poll(() => page.getByText("31.05").count(), LOADED).toBeGreaterThan(0);
  });
});
