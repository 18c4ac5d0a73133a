import { beforeAll, describe, expect, it } from "vitest";
import { startComposite } from "./composite.ts";
import { ADMIN } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

// Waits are generous upper bounds for slow machines, not speed assertions (docs/design.md §7).
const WAIT = { timeout: 20_000 };
const CME = ["GC", "SI", "HG", "NG", "CL"].map((key) => `cme:${key}`);
const MCX = ["GOLD", "SILVER", "COPPER", "NATURALGAS", "CRUDEOIL"].map((key) => `mcx:${key}`);

const suite = signedInSuite({
  app: startComposite,
  as: ADMIN,
  waitFor: (page) => page.locator("tr[data-key='mcx:GOLD'] [data-col='bid']"),
});

const source = (name: string) =>
  suite.page.getByRole("list", { name: "Price sources" }).locator(`[data-provider='${name}']`);

/** Waits until the source line shows these states, e.g. { yahoo: "delayed", broker: "down" }. */
async function sourcesAre(states: Record<string, string>): Promise<void> {
  await suite.page.waitForFunction(
    (want) =>
      Object.entries(want).every(
        ([name, state]) =>
          document
            .querySelector(`.source-line [data-provider='${name}']`)
            ?.getAttribute("data-state") === state,
      ),
    states,
    WAIT,
  );
}

/** Waits until every raw price row of `keys` has data-stale="true" (or "false"). */
async function rowsStale(keys: string[], stale: boolean): Promise<void> {
  await suite.page.waitForFunction(
    ({ keys, stale }) =>
      keys.every(
        (key) =>
          document.querySelector(`tr[data-key='${key}']`)?.getAttribute("data-stale") ===
          String(stale),
      ),
    { keys, stale },
    WAIT,
  );
}

async function staleFlags(keys: string[]): Promise<string[]> {
  return Promise.all(
    keys.map(async (key) =>
      String(await suite.page.locator(`tr[data-key='${key}']`).getAttribute("data-stale")),
    ),
  );
}

const ageSeconds = (text: string | null) => Number(/(\d+) s ago$/.exec(text ?? "")?.[1] ?? NaN);

describe("the dashboard's source line", () => {
  it("names each provider, live or delayed, with the age of its last quote", async () => {
    await sourcesAre({ yahoo: "delayed", broker: "live" });
    const line = suite.page.getByRole("list", { name: "Price sources" });
    expect(
      await line.locator("li").evaluateAll((items) => items.map((li) => li.dataset.provider)),
    ).toEqual(["yahoo", "kite", "broker"]);
    expect(await source("yahoo").textContent()).toMatch(/^Yahoo · delayed · \d+ s ago$/);
    expect(await source("broker").textContent()).toMatch(/^Broker · live · \d+ s ago$/);
    expect(await source("broker").getAttribute("title")).toContain("Serves GOLD, SILVER");
    expect(await source("kite").textContent()).toBe("Kite · not configured · no quote yet");
    expect(await source("kite").getAttribute("title")).toContain(
      "Last error: no Kite access token yet",
    );
  });

  it("tags delayed and last-price-only rows, and does not call a delayed price stale", async () => {
    await rowsStale([...CME, ...MCX], false);
    const tags = (key: string) =>
      suite.page
        .locator(`tr[data-key='${key}'] .price-tag`)
        .evaluateAll((els) => els.map((e) => e.textContent));
    expect(await tags("cme:GC")).toEqual(["delayed"]);
    expect(await tags("cme:SI")).toEqual(["delayed", "last"]);
    expect(await tags("mcx:GOLD")).toEqual([]);
    expect(
      await suite.page.locator("tr[data-key='cme:GC'] [data-tag='delayed']").getAttribute("title"),
    ).toMatch(/10–15 minutes behind/);
    // Yahoo's quotes carry times 15 minutes old, and the row still is not stale.
    expect(
      await suite.page.locator("tr[data-key='cme:GC'] [data-col='timestamp']").textContent(),
    ).toMatch(/IST/);
  });

  it("tags the spreads computed from a delayed or last-price-only input", async () => {
    // Every spread here reads a Yahoo price; the index spread, all live, needs Kite's NIFTY 50
    // and is absent. The replay dashboard test checks that live spreads carry no tag.
    const row = (table: string, symbol: string) =>
      suite.page
        .getByRole("table", { name: table, exact: true })
        .locator(`tr[data-symbol='${symbol}']`);
    const tags = (table: string, symbol: string) =>
      row(table, symbol)
        .locator("[data-col='spread'] .price-tag")
        .evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute("title")]));
    await row("Spread", "GC_BUY").locator("[data-col='spread'] .price-tag").waitFor(WAIT);
    expect(await row("Spread", "GC_BUY").getAttribute("data-delayed")).toBe("true");
    expect(await tags("Spread", "GC_BUY")).toEqual([
      ["delayed", "Computed from a delayed CME GC price: an indication, not a price to trade on."],
    ]);
    expect(await tags("Spread", "SI_SELL")).toEqual([
      ["delayed", "Computed from a delayed CME SI price: an indication, not a price to trade on."],
      ["last", "Computed from a last traded CME SI price: the source gave no bid/ask."],
    ]);
    expect(await row("Spot Spread", "XAUUSD").getAttribute("data-delayed")).toBe("true");
    expect(await tags("Spot Spread", "XAUUSD")).toEqual([
      [
        "delayed",
        "Computed from delayed CME GC and spot XAUUSD prices: an indication, not a price to trade on.",
      ],
    ]);
    expect(await suite.page.getByRole("table", { name: "Index Spread" }).count()).toBe(0);
  });

  it("turns the broker's part down and its rows stale while Yahoo stays delayed", async () => {
    suite.app.failBroker();
    await sourcesAre({ broker: "down" });
    await rowsStale(MCX, true);
    expect(await source("yahoo").getAttribute("data-state")).toBe("delayed");
    expect(await staleFlags(CME)).toEqual(Array(5).fill("false"));
    expect(await source("broker").textContent()).toMatch(/^Broker · down · \d+ s ago$/);
    expect(await source("broker").getAttribute("title")).toContain("Last error: HTTP 502");
    expect(
      await suite.page.locator("tr[data-key='mcx:GOLD'] .stale-badge").getAttribute("title"),
    ).toBe("Broker is down: this price is not being updated.");
    // The age counts on while nothing arrives.
    await suite.page.waitForFunction(
      () => {
        const text = document.querySelector(
          ".source-line [data-provider='broker'] .source-line__age",
        );
        return Number(/(\d+) s ago/.exec(text?.textContent ?? "")?.[1]) >= 2;
      },
      undefined,
      WAIT,
    );
  });

  it("recovers when the broker answers again", async () => {
    // The previous test left the broker down for at least 2 s: a fresh quote restarts its age.
    const ageWhileDown = ageSeconds(await source("broker").textContent());
    expect(ageWhileDown).toBeGreaterThanOrEqual(2);
    suite.app.resume();
    await sourcesAre({ yahoo: "delayed", broker: "live" });
    await rowsStale([...CME, ...MCX], false);
    await expect
      .poll(async () => ageSeconds(await source("broker").textContent()), WAIT)
      .toBeLessThan(ageWhileDown);
  });

  it("marks Yahoo stale, and its delayed rows with it, when its prices stop moving", async () => {
    suite.app.freezeYahoo();
    await sourcesAre({ yahoo: "stale", broker: "live" });
    await rowsStale(CME, true);
    expect(await staleFlags(MCX)).toEqual(Array(5).fill("false"));
    suite.app.resume();
    await sourcesAre({ yahoo: "delayed", broker: "live" });
    await rowsStale(CME, false);
  });
});

describe("the admin's Market Data Health", () => {
  const row = (name: string) => suite.page.locator(`.health-table tr[data-provider='${name}']`);

  beforeAll(async () => {
    await suite.page.getByRole("link", { name: "Admin" }).click();
    await suite.page.waitForURL(`${suite.app.url}/admin`);
  });

  it("is a section of its own", async () => {
    await suite.page.getByRole("heading", { name: "Market Data Health", exact: true }).waitFor();
  });

  it("lists every provider with its state, keys, reconnects and last error", async () => {
    await row("broker").waitFor(WAIT);
    const headers = suite.page.getByRole("table", { name: "Providers" }).locator("thead th");
    expect(await headers.allTextContents()).toEqual([
      "Provider",
      "State",
      "Last quote",
      "Reconnects",
      "Last error",
      "Keys",
    ]);
    const cell = (name: string, col: string) =>
      row(name).locator(`[data-col='${col}']`).textContent();
    expect(await cell("yahoo", "state")).toBe("delayed");
    expect(await cell("yahoo", "keys")).toBe("GC, SI, HG, NG, CL, XAUUSD, XAGUSD");
    expect(await cell("yahoo", "last-error")).toBe("none");
    expect(await cell("broker", "state")).toBe("live");
    expect(await cell("broker", "keys")).toBe(
      "GOLD, SILVER, COPPER, NATURALGAS, CRUDEOIL, GIFTNIFTY, USDINR",
    );
    expect(await row("broker").locator(".health-table__kind").textContent()).toBe("http-json");
    expect(await row("yahoo").locator(".health-table__kind").count()).toBe(0);
    // The outage above left its trace.
    expect(Number(await cell("broker", "reconnects"))).toBeGreaterThan(0);
    expect(await cell("broker", "last-error")).toMatch(/^HTTP 502 \(\d+ (s|min) ago\)$/);
    expect(await cell("broker", "last-quote")).toMatch(/^\d+ s ago$/);
  });

  it("offers the day's Kite login while Kite waits for it", async () => {
    // Outside MCX hours the state also says "market closed". Polled: the link waits for the
    // Kite status query, which starts once the health report names a Kite provider.
    await expect
      .poll(() => row("kite").locator("[data-col='state']").textContent(), { timeout: 10_000 })
      .toMatch(/^not configured(market closed)?Log in to Kite$/);
    const link = row("kite").getByRole("link", { name: "Log in to Kite" });
    expect(await link.getAttribute("href")).toBe("/api/kite/login");
    expect(await row("kite").locator("[data-col='last-error']").textContent()).toMatch(
      /^no Kite access token yet: an admin logs in at \/api\/kite\/login/,
    );
    expect(await row("kite").locator("[data-col='last-quote']").textContent()).toBe("no quote yet");
  });

  it("says so when Kite's login sends the admin back here", async () => {
    await suite.page.goto(`${suite.app.url}/admin?kite=connected`);
    const notice = suite.page.getByText("Kite login saved for today.", { exact: false });
    await notice.waitFor();
    await suite.page.getByRole("button", { name: "Dismiss" }).click();
    await notice.waitFor({ state: "detached" });
    expect(suite.page.url()).toBe(`${suite.app.url}/admin`);
  });

  it("shows the feed, prices, database, Telegram, uptime and version", async () => {
    const fact = (name: string) => suite.page.locator(`[data-fact='${name}'] dd`).textContent();
    expect(await fact("feed")).toBe("composite");
    expect(await fact("prices")).toMatch(/^fresh · \d+ s ago$/);
    expect(await fact("database")).toBe("OK");
    expect(await fact("telegram")).toBe("not configured");
    expect(await fact("uptime")).toMatch(/^\d+ (s|min)$/);
    expect(await fact("version")).toBe("0.1.0");
  });

  it("refreshes on its own: a provider going down shows without a reload", async () => {
    suite.app.failBroker();
    await row("broker").locator("[data-col='state']", { hasText: "down" }).waitFor(WAIT);
    suite.app.resume();
    await row("broker").locator("[data-col='state']", { hasText: "live" }).waitFor(WAIT);
    expect(await row("broker").locator("[data-col='state']").textContent()).toBe("live");
  });
});
