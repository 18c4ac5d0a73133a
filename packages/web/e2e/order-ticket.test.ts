import { formatNumber } from "@spreadwatch/core";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { FakeKite } from "../../api/test/fakes/fake-kite.ts";
import { rest } from "./alerts.ts";
import { ADMIN, RETRY_RESET, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

// The order ticket (docs/user-guide.md "Live orders") in Chromium against a fake Kite on loopback: a trader
// with their own Kite linked and live orders enabled opens the ticket on a GOLD near/next
// calendar, sees the dry run's exact requests, sends it live; the fake fills the first leg, the
// hedge goes on its fill, the campaign shows done with the spread it filled at.
const DANA = { username: "dana", password: "dana-pass-1234" };
const WAIT = { timeout: 60_000 };
/** The calendar the first test creates (the second sends on it too). */
let calendar = "";
let kite: FakeKite | undefined;
afterAll(() => kite?.stop());

/** The admin enables live orders for `username`, from outside the browser. */
async function enableLiveOrders(url: string, username: string) {
  const login = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const users = (await (await fetch(`${url}/api/auth/users`, { headers: { cookie } })).json()) as {
    users: Array<{ id: number; username: string }>;
  };
  const id = users.users.find((u) => u.username === username)?.id;
  const put = await fetch(`${url}/api/admin/live-orders/users/${id}`, {
    method: "PUT",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ enabled: true }),
  });
  expect(put.status).toBe(200);
}

/**
 * GOLD near and next with Kite's contracts, a quote of each every 500 ms for ten minutes played
 * at their own pace, so both legs stay fresh once the calendar puts GOLD@next in use. Stamped a
 * minute ahead (as fixtures.ts freshFixture): the replay keeps the stamps' spacing from its start,
 * so quotes stamped "now" are as old as the start-up took, stale all along after a 10 s start.
 */
function calendarQuotes(): string {
  const start = Date.now() + 60_000;
  const rows = ["ts,source,key,bid,ask,price,contract,expiry"];
  for (let i = 0; i < 1_200; i++) {
    const ts = start + i * 500;
    rows.push(`${ts},mcx,GOLD,127000,127010,,GOLD26FEBFUT,2026-02-05`);
    rows.push(`${ts},mcx,GOLD@next,127500,127540,,GOLD26APRFUT,2026-04-03`);
  }
  return `${rows.join("\n")}\n`;
}

const suite = signedInSuite({
  app: async () => {
    kite = await new FakeKite().start();
    kite.requestTokens.set("req-dana", "tok-dana");
    kite.requestUsers.set("req-dana", "DA1234");
    return startApp({
      feed: "replay",
      replayCsv: calendarQuotes(),
      replaySpeed: 1,
      env: kite.env(),
    });
  },
  users: [DANA],
  page: { colorScheme: "light", width: 1400, height: 900 },
  as: DANA,
});

/** With SHOTS_DIR set, the page at 1400 and 390 px, light and dark, for a person to look at. */
async function screenshotsIfAsked(page: Page, name: string): Promise<void> {
  if (!process.env.SHOTS_DIR) return;
  for (const width of [1400, 390])
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate((s) => {
        document.documentElement.dataset.theme = s;
      }, scheme);
      await page.screenshot({
        path: `${process.env.SHOTS_DIR}/${name}-${width}-${scheme}.png`,
        fullPage: true,
      });
    }
}

describe("the order ticket", () => {
  it("shows the dry run's requests, then works both legs live to done", async () => {
    const { page, app } = suite;
    const book = (kite as FakeKite).book;
    await enableLiveOrders(app.url, DANA.username);
    const login = await page.request.get(`${app.url}/api/profile/kite/login`, {
      maxRedirects: 0,
      ...RETRY_RESET,
    });
    const state = new URLSearchParams(
      new URL(login.headers().location as string).searchParams.get("redirect_params") ?? "",
    ).get("state");
    await page.goto(
      `${app.url}/api/kite/callback?request_token=req-dana&state=${state}&for=profile`,
    );
    await page.waitForURL("**/profile?kite=connected");
    const created = await rest(page, "POST", "/api/spreads", {
      name: "Gold calendar",
      legs: [
        { name: "a", instrument: "GOLD" },
        { name: "b", instrument: "GOLD@next" },
      ],
      formula: "b - a",
    });
    expect(created.status).toBe(201);
    const symbol = created.json.symbol as string;
    calendar = symbol;
    await page.goto(`${app.url}/ticket/${symbol}_BUY`);
    const requests = page.getByTestId("ticket-requests");
    // The definition's value is published once its legs quote: ask until the ticket answers.
    await expect
      .poll(async () => {
        await page.getByRole("button", { name: "Show the requests" }).click();
        return (await requests.count()) > 0 ? requests.textContent() : "";
      }, WAIT)
      .toMatch(/POST \/orders\/regular.*tradingsymbol=GOLD.*transaction_type=BUY/s);
    expect(book.placements()).toEqual([]);
    // The margin is Kite's for the basket of both legs, asked with Dana's own session: every
    // basket the fake was asked holds the two legs together, and the ticket shows its answer.
    const fake = kite as FakeKite;
    const shown = page.locator('[data-field="ticket-margin"]');
    await expect.poll(() => shown.getAttribute("data-value"), WAIT).toMatch(/^\d/);
    expect(fake.marginRequests.length).toBeGreaterThan(0);
    for (const basket of fake.marginRequests) {
      expect(basket.authorization).toMatch(/:tok-dana$/);
      expect(basket.orders.map((o) => [o.tradingsymbol, o.transaction_type])).toEqual([
        ["GOLD26APRFUT", "BUY"],
        ["GOLD26FEBFUT", "SELL"],
      ]);
    }
    const last = fake.marginRequests.at(-1)?.orders ?? [];
    const value = (i: number) =>
      Number(last[i]?.price) * Number(last[i]?.quantity) * 100 * fake.marginRate;
    const final = Math.max(value(0), value(1)) * fake.spreadKeeps;
    await expect
      .poll(async () => Number(await shown.getAttribute("data-value")), WAIT)
      .toBeCloseTo(final, 2);
    expect(await shown.textContent()).toMatch(
      /^Kite's margin for both legs together: ₹[\d,.]+ \(₹[\d,.]+ before the spread benefit\)$/,
    );
    // The line above the button says what the ticket sends before it is sent: the calendar's
    // legs name no lots, the requests carry 1 lot each, and so does the preview, with the dry
    // run's own Kite margin (not a position's figure, which has none for legs without lots).
    const preview = page.locator('[data-field="ticket-preview"]');
    const previewMargin = page.locator('[data-field="ticket-preview-margin"]');
    await expect
      .poll(
        async () => Number((await previewMargin.getAttribute("data-value")) || Number.NaN),
        WAIT,
      )
      .toBeCloseTo(final, 2);
    const legs = page.locator('[data-field="ticket-leg"]');
    expect(
      await legs.evaluateAll((spans) => spans.map((s) => [s.dataset.leg, s.dataset.lots])),
    ).toEqual([
      ["b", "1"],
      ["a", "1"],
    ]);
    expect(await preview.textContent()).toMatch(
      /^BUY 1 lot GOLD26APRFUT · SELL 1 lot GOLD26FEBFUT · Margin ₹[\d,.]+ \(Kite, both legs together\) · costs ₹[\d,.]+ round trip$/,
    );
    const ticketCosts = page.locator('[data-field="costs-preview"]');
    expect(Number(await ticketCosts.getAttribute("data-value"))).toBeGreaterThan(0);
    expect(await previewMargin.textContent()).toBe(
      (await shown.textContent())?.match(/₹[\d,.]+/)?.[0],
    );
    await screenshotsIfAsked(page, "ticket");
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.getByRole("checkbox", { name: "Dry run (send nothing)" }).uncheck();
    await page.getByRole("button", { name: "Send to Kite" }).click();
    const status = page.getByTestId("campaign-status");
    await expect.poll(() => status.textContent(), WAIT).toBe("working");
    await kite?.until(() => book.open().length === 1, "the first leg");
    const work = book.open()[0];
    book.fill(work?.order_id ?? "");
    await kite?.until(() => book.open().length === 1 && book.open()[0] !== work, "the hedge");
    book.fill(book.open()[0]?.order_id ?? "");
    await expect.poll(() => status.textContent(), WAIT).toBe("done");
    expect(await page.getByTestId("campaign-filled").textContent()).toMatch(/^-?\d/);
    expect(book.placements()).toHaveLength(2);
    if (process.env.SHOTS_DIR)
      await page.screenshot({ path: `${process.env.SHOTS_DIR}/ticket-done.png`, fullPage: true });
    // The fills open a position marked live, entered at the real fills, valued like paper.
    const fills = book.placements().map((r) => Number(r.form.price));
    await page.goto(`${app.url}/positions`);
    const row = page.locator(`[data-spread="${symbol}"]`);
    await expect.poll(() => row.locator('[data-field="live"]').textContent(), WAIT).toBe("Live");
    const filled = await row.locator('[data-field="fills"]').textContent();
    expect(filled).toContain(`GOLD26APRFUT ${formatNumber(fills[0] ?? 0, 2)}`);
    expect(filled).toContain(`GOLD26FEBFUT ${formatNumber(fills[1] ?? 0, 2)}`);
    expect(filled).toMatch(/slippage \d/);
    expect(await row.locator('[data-field="entry"]').textContent()).toMatch(/\d/);
    await screenshotsIfAsked(page, "live-position");
  });

  it("adds to the live position from its Add to live: one position with both campaigns' lots", async () => {
    const { page, app } = suite;
    const book = (kite as FakeKite).book;
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`${app.url}/positions`);
    const row = page.locator(`[data-spread="${calendar}"]`);
    await expect.poll(() => row.locator('[data-field="live"]').textContent(), WAIT).toBe("Live");
    const before = await rest(page, "GET", "/api/positions");
    const held = (before.json.positions as Array<{ id: number; live: boolean }>).find(
      (p) => p.live,
    );
    await row.getByRole("link", { name: "Add to live" }).click();
    await page.waitForURL(`**/ticket/${calendar}_BUY?lots=1&position=${held?.id}`);
    const into = page.getByRole("checkbox", { name: "Add to live position (BUY 1 lots)" });
    await into.waitFor(WAIT);
    expect(await into.isChecked()).toBe(true);
    await screenshotsIfAsked(page, "ticket-add");
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.getByRole("checkbox", { name: "Dry run (send nothing)" }).uncheck();
    await page.getByRole("button", { name: "Send to Kite" }).click();
    const status = page.getByTestId("campaign-status");
    await expect.poll(() => status.textContent(), WAIT).toBe("working");
    const sent = book.placements().length;
    await kite?.until(() => book.open().length === 1, "the first leg");
    book.fill(book.open()[0]?.order_id ?? "");
    await kite?.until(() => book.placements().length === sent + 1, "the hedge");
    await kite?.until(() => book.open().length === 1, "the hedge resting");
    book.fill(book.open()[0]?.order_id ?? "");
    await expect.poll(() => status.textContent(), WAIT).toBe("done");
    await page.goto(`${app.url}/positions`);
    await expect.poll(() => row.locator('[data-field="lots"]').textContent(), WAIT).toBe("2");
    // Still one position on the calendar: the campaign's fills went into it.
    expect(await row.count()).toBe(1);
  });

  it("pops a toast on the dashboard when the hedge is rejected and the ticket chose alert", async () => {
    const { page, app } = suite;
    const book = (kite as FakeKite).book;
    book.policy = (order) =>
      order.tradingsymbol === "GOLD26FEBFUT" ? { reject: "Price band exceeded" } : "rest";
    try {
      await page.goto(`${app.url}/`);
      const sent = await rest(page, "POST", "/api/executions", {
        spread: calendar,
        side: "BUY",
        lots: 1,
        onHedgeFail: "alert",
        dryRun: false,
      });
      expect(sent.status, JSON.stringify(sent.json)).toBe(201);
      const id = sent.json.id as string;
      await kite?.until(() => book.tagged(`${id}w1`).length === 1, "the first leg");
      book.fill(book.tagged(`${id}w1`)[0]?.order_id ?? "");
      const toast = page.locator("[data-notification]", { hasText: "Naked leg" });
      await expect.poll(() => toast.count(), WAIT).toBe(1);
      expect(await toast.textContent()).toContain(id);
      if (process.env.SHOTS_DIR)
        await page.screenshot({ path: `${process.env.SHOTS_DIR}/naked-toast.png` });
    } finally {
      book.policy = () => "rest";
    }
  });

  it("opens from a paper position's Place for real with its side and lots, showing margin and costs", {
    timeout: 120_000,
  }, async () => {
    const { page, app } = suite;
    const opened = await rest(page, "POST", "/api/positions", {
      spread: calendar,
      side: "SELL",
      lots: 2,
    });
    expect(opened.status, JSON.stringify(opened.json)).toBe(201);
    const paperId = opened.json.id as number;
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`${app.url}/positions`);
    const link = page.getByRole("link", { name: "Place for real" });
    await expect.poll(() => link.count(), WAIT).toBe(1);
    await link.click();
    await page.waitForURL(`**/ticket/${calendar}_SELL?lots=2&position=${paperId}`);
    expect(await page.getByLabel("Lots").inputValue()).toBe("2");
    expect(await page.getByLabel("Side").inputValue()).toBe("SELL");
    // The server's preview for these lots: round-trip costs always, margin where a source
    // (configured rates, Kite's basket margins) covers the legs.
    const preview = page.locator('[data-field="ticket-preview"]');
    await expect
      .poll(() => preview.textContent(), WAIT)
      .toMatch(
        /^SELL 2 lots GOLD26APRFUT · BUY 2 lots GOLD26FEBFUT · Margin .* · costs ₹[\d,]+ round trip$/,
      );
    const costs = page.locator('[data-field="costs-preview"]');
    expect(await costs.getAttribute("data-value")).toMatch(/^\d/);
    await screenshotsIfAsked(page, "ticket-prefill");
  });
});
