import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatNumber } from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { FakeHttp } from "../../api/test/fakes/fake-http.ts";
import {
  acceptLoginOfTheDay,
  FakeKite,
  instrumentsCsv,
  mcxFuture,
} from "../../api/test/fakes/fake-kite.ts";
import {
  bookTick,
  frame,
  GOLD_APR,
  GOLD_FEB,
  GOLD_JUN,
} from "../../api/test/fakes/kite-packets.ts";
import { rest } from "./alerts.ts";
import { ADMIN, type RunningApp, startApp, telegramEnv } from "./harness.ts";
import {
  closeDialog,
  closedTrades,
  figure,
  listedPositions,
  openDialog,
  openPositions,
} from "./positions.ts";
import { signedInSuite } from "./suite.ts";

// docs/user-guide.md "Positions (paper)" across a contract's expiry, in Chromium on the production
// start with FEED=composite: a fake Kite on loopback quotes MCX GOLD (its near contract picked from
// Kite's instruments list), a broker's JSON endpoint quotes COMEX GC and USDINR. A trader with
// Telegram connected opens BUY 2 × GC on the Positions screen, sets a net ₹ target that the market
// then crosses (the 🎯 line reaches the fake Telegram), closes one lot, and when the exchange
// delists the near contract the feed moves GOLD to the next one: the position greys with "… rolled"
// and Roll closes the held lots at their last mark and opens GC again on the next contract, in the
// same campaign. The closed trades' CSV holds both closes; nobody else sees the position.
const WAIT = { timeout: 60_000 };
const LONG = 300_000;
const TRADER = { username: "rhea", password: "rhea-secret-1", alerts_enabled: true };
const OTHER = { username: "omar", password: "omar-secret-1", alerts_enabled: true };
const CHAT_ID = "7070";

// Contracts of 2099, so the calendar never expires them under the test: what moves GOLD from
// one to the other is the instruments list, as on the day after an expiry.
const NEAR = { token: GOLD_FEB, symbol: "GOLD99OCTFUT", expiry: "2099-10-05" };
const NEXT = { token: GOLD_APR, symbol: "GOLD99DECFUT", expiry: "2099-12-04" };
const BOTH = [NEAR, NEXT].map((c) => mcxFuture(c.token, c.symbol, "GOLD", c.expiry));
/** The contract after those, quoted with a crossed book: it has no live value. */
const THIRD = { token: GOLD_JUN, symbol: "GOLD00FEBFUT", expiry: "2100-02-04" };
const THIRD_CSV = mcxFuture(THIRD.token, THIRD.symbol, "GOLD", THIRD.expiry);

/** The market the fakes quote: GOLD's two contracts on Kite, GC and USDINR on the broker. */
const market = {
  near: 76_000,
  next: 76_800,
  gcBid: 2650,
  gcAsk: 2650.5,
  usdinr: 84,
  /** The third contract quotes (crossed) once the last test lists it. */
  third: false,
};

interface RollApp extends RunningApp {
  kite: FakeKite;
}

// biome-ignore lint/suspicious/noExplicitAny: the test reads raw JSON
type Json = any;

/** A session cookie for `who`, signed in through the REST API. */
async function signIn(url: string, who: { username: string; password: string }): Promise<string> {
  const login = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: who.username, password: who.password }),
  });
  if (!login.ok) throw new Error(`${who.username} could not sign in: ${login.status}`);
  return login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** The admin's Kite login of the day, as the Connect Kite button's redirects carry it. */
async function connectKite(url: string, requestToken: string): Promise<void> {
  const cookie = await signIn(url, ADMIN);
  const login = await fetch(`${url}/api/kite/login`, { headers: { cookie }, redirect: "manual" });
  const redirect = new URL(login.headers.get("location") ?? "").searchParams.get("redirect_params");
  const state = new URLSearchParams(redirect ?? "").get("state");
  const callback = await fetch(
    `${url}/api/kite/callback?request_token=${requestToken}&state=${state}`,
    { headers: { cookie }, redirect: "manual" },
  );
  if (callback.headers.get("location") !== "/admin?kite=connected")
    throw new Error(`Kite login refused: ${callback.status} ${callback.headers.get("location")}`);
}

async function startWithKite(telegramApi: string): Promise<RollApp> {
  const kite = await new FakeKite().start();
  acceptLoginOfTheDay(kite);
  kite.instruments.set("MCX", instrumentsCsv(BOTH));
  const broker = await new FakeHttp().start();
  broker.route("/quotes", () => ({
    json: { GC: { bid: market.gcBid, ask: market.gcAsk }, USDINR: market.usdinr },
  }));
  // Kite streams both contracts' books; the provider reads the one it subscribed to.
  const ticker = setInterval(() => {
    const books = [bookTick(NEAR.token, market.near, 50), bookTick(NEXT.token, market.next, 50)];
    if (market.third) books.push(bookTick(THIRD.token, market.next + 800, -50));
    kite.send(frame(...books));
  }, 250);
  const dir = await mkdtemp(join(tmpdir(), "spreadwatch-e2e-roll-"));
  const config = join(dir, "market-data.json");
  const poll = { pollSeconds: 0.2, backoff: { initialSeconds: 0.1, maxSeconds: 0.4 } };
  await writeFile(
    config,
    JSON.stringify({
      providers: {
        kite: {
          type: "kite",
          keys: ["GOLD"],
          hours: "always",
          refreshSeconds: 0.5,
          tokenCheckSeconds: 0.1,
        },
        broker: {
          type: "http-json",
          url: `${broker.url}/quotes`,
          quotes: [
            { key: "GC", bid: "GC.bid", ask: "GC.ask" },
            { key: "USDINR", price: "USDINR" },
          ],
          ...poll,
        },
      },
    }),
  );
  const stopFakes = async () => {
    clearInterval(ticker);
    await Promise.all([kite.stop(), broker.stop()]);
    await rm(dir, { recursive: true, force: true });
  };
  const app = await startApp({
    feed: "composite",
    env: {
      ...telegramEnv(telegramApi),
      MARKET_DATA_CONFIG: config,
      ...kite.env(),
    },
  }).catch(async (error) => {
    await stopFakes();
    throw error;
  });
  await connectKite(app.url, "req-good");
  return {
    ...app,
    kite,
    async stop() {
      await app.stop();
      await stopFakes();
    },
  };
}

const suite = signedInSuite({
  telegram: {},
  app: ({ telegram }) => startWithKite(telegram.apiRoot),
  users: [TRADER, OTHER],
  as: TRADER,
  page: { width: 1400, height: 900 },
  waitFor: (page) => page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']"),
});

/** The first position's id: every later step follows it. */
let firstId = 0;
/** The rolled position's id. */
let rolledId = 0;
/** The December lots' last mark, which the roll closed them at. */
let lastMark = 0;

const rollDialog = (page: import("playwright-core").Page) =>
  page.locator("dialog[data-dialog='roll-position']");

const row = () => openPositions(suite.page).locator("tr[data-spread='GC']");

async function listed(): Promise<Json[]> {
  return (await listedPositions(suite.page)) as Json[];
}

describe("a GC position across GOLD's expiry", () => {
  it(
    "opens BUY 2 × GC on the near contract and its net ₹ target reaches Telegram",
    async () => {
      const { page, app } = suite;
      const connected = await rest(page, "POST", "/api/telegram/connect", { chatId: CHAT_ID });
      expect(connected.status).toBe(200);
      await page.getByRole("link", { name: "Positions" }).click();
      await page.waitForURL(`${app.url}/positions`);
      await page.getByRole("button", { name: "Open position" }).click();
      const dialog = openDialog(page);
      await dialog.getByLabel("Spread", { exact: true }).selectOption("GC");
      await expect
        .poll(() => dialog.locator("[data-field='live-value']").textContent(), WAIT)
        .toMatch(/GC_BUY now [+−]?\d/);
      await dialog.getByLabel("Lots", { exact: true }).fill("2");
      await dialog.getByRole("button", { name: "Open position" }).click();
      await dialog
        .getByText(/^Opened BUY 2 × .* at [+−]?[\d,.]+\. No order was sent/)
        .waitFor(WAIT);
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });

      const [opened] = await listed();
      expect(opened).toMatchObject({
        spread: "GC",
        side: "BUY",
        lots: 2,
        legs: { m: { instrument: "GOLD", contract: NEAR.symbol } },
      });
      firstId = opened.id;
      expect(opened.campaignId).toBe(firstId);
      let net: number | null = null;
      await expect
        .poll(async () => {
          net = (await listed()).find((p) => p.id === firstId)?.netInr ?? null;
          return net;
        }, WAIT)
        .not.toBeNull();
      // GOLD 100 higher lifts the exit 100 points: ₹20,000 on 2 lots of 100 units. The target
      // sits halfway.
      const target = Math.round((net ?? 0) + 10_000);
      await row().locator("[data-field='target-stop'] button").click();
      const edit = page.locator("dialog[data-dialog='edit-position']");
      await edit.getByLabel("Target, net ₹").fill(String(target));
      await edit.getByRole("button", { name: "Save" }).click();
      await edit.waitFor({ state: "detached" });
      await expect
        .poll(() => row().locator("[data-field='target-stop'] button").textContent(), WAIT)
        .toContain(`target +₹${target.toLocaleString("en-IN")}`);
      // The level learns where net stands from a quote after it was set; only then does the
      // market move, so the target is crossed rather than found already reached.
      const savedAt = Date.now();
      await expect
        .poll(async () => {
          const { json } = await rest(page, "GET", "/api/prices");
          return (json as Json).mcx?.GOLD?.timestamp ?? 0;
        }, WAIT)
        .toBeGreaterThan(savedAt);
      const before = suite.telegram.textsTo(CHAT_ID).length;
      market.near += 100;
      await expect
        .poll(() => suite.telegram.textsTo(CHAT_ID).slice(before), WAIT)
        .toContainEqual(
          expect.stringMatching(
            new RegExp(
              `^🎯 BUY 2 × GC: net ₹[\\d,.]+ reached target ₹${target.toLocaleString("en-IN")}$`,
            ),
          ),
        );
    },
    LONG,
  );

  it(
    "closes one of the two lots in the Close dialog",
    async () => {
      const { page } = suite;
      await row().getByRole("button", { name: "Close" }).click();
      const dialog = closeDialog(page);
      await dialog.getByLabel(/Lots to close/).fill("1");
      await dialog.getByRole("button", { name: "Close position" }).click();
      await dialog.locator("[data-field='realised']").waitFor(WAIT);
      await dialog.getByRole("button", { name: "Done" }).click();
      await expect.poll(() => row().locator("[data-field='lots']").textContent(), WAIT).toBe("1");
      expect(await listed()).toMatchObject([{ id: firstId, lots: 1 }]);
    },
    LONG,
  );

  it(
    "greys the position when the feed rolls GOLD past the contract held, and Roll re-enters GC on the next",
    async () => {
      const { page, app } = suite;
      const kite = (app as RollApp).kite;
      // GOLD falls back under the target (re-arming it), as the server's own mark shows.
      market.near -= 200;
      await expect
        .poll(async () => {
          const [now] = await listed();
          return now?.netInr < now?.targetInr - 1_000;
        }, WAIT)
        .toBe(true);
      const [held] = await listed();
      expect(held?.contractMoved).toBeNull();
      const targets = () => suite.telegram.textsTo(CHAT_ID).filter((t) => t.startsWith("🎯"));
      expect(targets()).toHaveLength(1);
      // The near contract expires: the next day's instruments list no longer has it, and the
      // next day's Kite login makes the provider read that list (it keeps one per day and token).
      kite.instruments.set("MCX", instrumentsCsv([BOTH[1] as string]));
      kite.requestTokens.set("req-next-day", "access-next-day");
      kite.validTokens.add("access-next-day");
      await connectKite(app.url, "req-next-day");
      await expect
        .poll(async () => {
          const { json } = await rest(page, "GET", "/api/prices");
          return (json as Json).mcx?.GOLD?.contract;
        }, WAIT)
        .toBe(NEXT.symbol);

      // Before any roll a position has no campaign line: it would only repeat its net.
      expect(await row().locator("[data-field='campaign']").count()).toBe(0);
      const badge = row().locator("[data-field='expiry']");
      await expect.poll(() => badge.textContent(), WAIT).toMatch(`${NEAR.symbol} rolled`);
      await expect.poll(() => row().getAttribute("data-stale"), WAIT).toBe("true");
      const [moved] = await listed();
      expect(moved).toMatchObject({
        id: firstId,
        stale: true,
        contractMoved: { instrument: "GOLD", from: NEAR.symbol, to: NEXT.symbol },
      });
      expect(typeof moved.mark).toBe("number");
      // What the row shows, greyed: the held contract's last mark, which Roll closes at.
      lastMark = Number(await row().locator("[data-field='mark']").getAttribute("data-value"));
      expect(Number.isFinite(lastMark)).toBe(true);
      // The next contract trades 800 higher: read as this position's mark that would be ₹70,000
      // past the target. It is another contract's price, so the target is held (History only).
      await expect
        .poll(async () => {
          const { json } = await rest(page, "GET", "/api/alerts/history");
          return ((json as Json).entries as Json[]).map((e) => `${e.state}: ${e.note}`);
        }, WAIT)
        .toContainEqual(
          // The re-login's reconnect may still read as "feed down" (the feed monitor's health
          // goes out every 5 s) when the new contract's first quote lands: held either way.
          expect.stringMatching(
            `^held: .*Held: (GOLD now quotes ${NEXT.symbol}, not the ${NEAR.symbol} held|MCX GOLD feed down)`,
          ),
        );

      await badge.getByRole("button", { name: "Roll" }).click();
      const dialog = rollDialog(page);
      expect(await dialog.locator("[data-field='roll-question']").textContent()).toMatch(
        new RegExp(
          `GOLD now quotes ${NEXT.symbol}: the lot of ${NEAR.symbol} closes at the last mark`,
        ),
      );
      await dialog.getByRole("button", { name: "Roll position" }).click();
      await dialog.waitFor({ state: "detached", ...WAIT });
      await expect.poll(async () => (await listed()).map((p) => p.id), WAIT).not.toContain(firstId);
      const [rolled] = await listed();
      expect(rolled).toMatchObject({
        spread: "GC",
        side: "BUY",
        lots: 1,
        campaignId: firstId,
        rolledFromId: firstId,
        contractMoved: null,
        legs: { m: { instrument: "GOLD", contract: NEXT.symbol } },
      });
      rolledId = rolled.id;
      // Live again, on the next contract: no longer greyed, no roll due.
      await expect.poll(() => row().getAttribute("data-position"), WAIT).toBe(String(rolledId));
      await expect.poll(() => row().getAttribute("data-stale"), WAIT).toBeNull();
      // The contract calendar may still warn of an expiry ahead (it goes by today's date, not the
      // feed's 2099 contracts); nothing says the contract held has rolled.
      const badgeNow = row().locator("[data-field='expiry']");
      const badgeText = (await badgeNow.count()) > 0 ? await badgeNow.textContent() : "";
      expect(badgeText).not.toContain("rolled");
      const closed = (await listedPositions(page, "closed")) as Json[];
      const first = closed.find((p) => p.id === firstId);
      // The campaign since the first entry: both closes' realised ₹ plus this net, to the paisa.
      const realised = ((first?.closes ?? []) as Json[]).reduce((sum, c) => sum + c.realisedInr, 0);
      const campaign = row().locator("[data-field='campaign']");
      await expect.poll(() => figure(row(), "net"), WAIT).not.toBeNull();
      await expect
        .poll(async () => {
          const [total, net] = [await figure(row(), "campaign"), await figure(row(), "net")];
          return total === null || net === null ? null : Math.round((total - net) * 100);
        }, WAIT)
        .toBe(Math.round(realised * 100));
      expect(await campaign.textContent()).toMatch(/^(\+|\u2212)?₹[\d,]+$/);
      expect(first?.closes?.map((c: Json) => [c.reason, c.lots])).toEqual(
        expect.arrayContaining([
          ["close", 1],
          ["roll", 1],
        ]),
      );
      expect(first?.closes?.find((c: Json) => c.reason === "roll")?.exit).toBe(lastMark);
      // Only the target's one crossing reached Telegram: not the contracts' gap.
      expect(targets()).toHaveLength(1);
    },
    LONG,
  );

  it("exports the closed trades with the half close and the roll's close", async () => {
    const { page } = suite;
    const link = closedTrades(page).getByRole("link", { name: "Export CSV" });
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    let text = "";
    for await (const chunk of await download.createReadStream()) text += chunk.toString();
    const [header, ...lines] = text.trim().split(/\r?\n/);
    const columns = (header ?? "").split(",");
    // Text cells are quoted (none here holds a comma); numbers are bare.
    const cell = (value: string) => (value.startsWith('"') ? JSON.parse(value) : value);
    const rows = lines.map((line) =>
      Object.fromEntries(line.split(",").map((value, i) => [columns[i], cell(value)])),
    );
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.reason).sort()).toEqual(["close", "roll"]);
    // With the spread's decimals, as the Positions screen shows it.
    expect(rows.find((r) => r.reason === "roll")?.exit).toBe(formatNumber(lastMark, 2));
    for (const r of rows)
      expect(r).toMatchObject({
        position_id: String(firstId),
        campaign_id: String(firstId),
        spread: "GC",
        side: "BUY",
        lots: "1",
      });
  });

  it(
    "rolls onto a contract with no live value yet: the Roll dialog asks for the entry",
    async () => {
      const { page, app } = suite;
      const kite = (app as RollApp).kite;
      // The next expiry moves GOLD to a third contract whose book is crossed: the position greys
      // with Roll, and a live entry on the contract it now quotes is refused.
      market.third = true;
      kite.instruments.set("MCX", instrumentsCsv([THIRD_CSV]));
      kite.requestTokens.set("req-third-day", "access-third-day");
      kite.validTokens.add("access-third-day");
      await connectKite(app.url, "req-third-day");
      const badge = row().locator("[data-field='expiry']");
      await expect.poll(() => badge.textContent(), WAIT).toMatch(`${NEXT.symbol} rolled`);
      await badge.getByRole("button", { name: "Roll" }).click();
      const dialog = rollDialog(page);
      await dialog.getByRole("button", { name: "Roll position" }).click();
      await expect
        .poll(() => dialog.getByRole("alert").textContent(), WAIT)
        .toMatch(/no live value yet: type the entry, or each leg's fill/);
      expect((await listed()).map((p) => p.id)).toEqual([rolledId]);
      await dialog.getByLabel("Entry value").fill("1234.5");
      await dialog.getByRole("button", { name: "Roll position" }).click();
      await dialog.waitFor({ state: "detached", ...WAIT });
      await expect
        .poll(async () => (await listed()).map((p) => p.id), WAIT)
        .not.toContain(rolledId);
      const [again] = await listed();
      expect(again).toMatchObject({
        spread: "GC",
        entry: 1234.5,
        campaignId: firstId,
        rolledFromId: rolledId,
      });
      await expect
        .poll(
          () =>
            openPositions(page)
              .getByText(/^Rolled: closed 1 at /)
              .count(),
          WAIT,
        )
        .toBe(1);
      rolledId = again.id;
    },
    LONG,
  );

  it("is nobody else's: another trader and an admin get 404", async () => {
    const { page, app } = suite;
    expect((await rest(page, "GET", `/api/positions/${rolledId}`)).status).toBe(200);
    for (const who of [OTHER, ADMIN]) {
      const cookie = await signIn(app.url, who);
      for (const id of [firstId, rolledId]) {
        const answer = await fetch(`${app.url}/api/positions/${id}`, { headers: { cookie } });
        expect(answer.status, `${who.username} GET /api/positions/${id}`).toBe(404);
      }
    }
  });
});
