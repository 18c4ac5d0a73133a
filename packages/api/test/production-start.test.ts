// What ships, smoke-tested: the server exactly as `pnpm start` runs it (scripts/start.mjs and the
// esbuild bundle in packages/api/dist, no TypeScript loader), with every outbound integration of
// one process pointed at a fake on loopback. Kite (login exchange, then binary ticks) quotes MCX
// GOLD, Yahoo quotes COMEX GC, an http-json endpoint quotes USDINR; a trader connects Telegram,
// saves a webhook and sets a GC_BUY alert; a GOLD tick crosses it and both channels deliver.
// The cluster's PostgreSQL and Redis run through the same start in the kill -9 tests
// (cluster-failover.test.ts, cluster-webhook-failover.test.ts use runMain too).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeTelegram } from "./fake-telegram.ts";
import { FakeHttp } from "./fakes/fake-http.ts";
import { acceptLoginOfTheDay, FakeKite, listGoldFuture } from "./fakes/fake-kite.ts";
import { FakeWebhook, signatureVerifies } from "./fakes/fake-webhook.ts";
import { FakeYahoo } from "./fakes/fake-yahoo.ts";
import { frame, fullPacket, GOLD_FEB } from "./fakes/kite-packets.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, listeningUrl, type MainProcess, runMain } from "./server.ts";
import { CHAT, telegramEnv } from "./telegram-trader.ts";

const SECRET = "a-webhook-secret-of-the-trader";
const GC = { bid: 2650, ask: 2650.4 };
const USDINR = 84;
const METRICS_TOKEN = "a-metrics-token-for-the-scraper";

let dir: string;
let kite: FakeKite;
let yahoo: FakeYahoo;
let fx: FakeHttp;
let telegram: FakeTelegram;
let receiver: FakeWebhook;
let main: MainProcess;
let url: string;

/** A full-mode GOLD tick with a one-level book, in rupees (Kite sends paise). */
function goldTick(bid: number, ask: number): Buffer {
  const paise = (rupees: number) => Math.round(rupees * 100);
  return frame(
    fullPacket(GOLD_FEB, {
      last: paise(bid),
      exchangeTime: Math.floor(Date.now() / 1000),
      bids: [{ qty: 10, price: paise(bid), orders: 1 }],
      asks: [{ qty: 10, price: paise(ask), orders: 1 }],
    }),
  );
}

async function signIn(username: string, password: string): Promise<HttpClient> {
  const client = new HttpClient(url);
  expect((await client.post("/api/auth/login", { username, password })).status).toBe(200);
  return client;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "spreadwatch-production-"));
  [kite, yahoo, fx, telegram, receiver] = await Promise.all([
    new FakeKite().start(),
    new FakeYahoo().start(),
    new FakeHttp().start(),
    new FakeTelegram().start(),
    new FakeWebhook().start(),
  ]);
  acceptLoginOfTheDay(kite);
  listGoldFuture(kite);
  // Yahoo and the fx endpoint answer with the time of the answer, as a live market does.
  yahoo.beforeQuote = () =>
    yahoo.results.set("GC=F", { ...GC, regularMarketPrice: GC.bid, regularMarketTime: now() });
  yahoo.beforeQuote();
  fx.route("/fx", () => ({ json: { usdinr: USDINR } }));

  const marketData = join(dir, "market-data.json");
  writeFileSync(
    marketData,
    JSON.stringify({
      providers: {
        kite: { type: "kite", keys: ["GOLD"], hours: "always", tokenCheckSeconds: 0.05 },
        yahoo: {
          type: "yahoo",
          keys: ["GC"],
          baseUrl: yahoo.url,
          cookieUrl: yahoo.cookieUrl,
          pollSeconds: 0.2,
        },
        fx: {
          type: "http-json",
          url: `${fx.url}/fx`,
          pollSeconds: 0.2,
          quotes: [{ key: "USDINR", price: "usdinr" }],
        },
      },
    }),
  );
  main = runMain({
    DATA_DIR: join(dir, "data"),
    FEED: "composite",
    MARKET_DATA_CONFIG: marketData,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ...kite.env(),
    WEBHOOK_ALLOW_PRIVATE: "true",
    METRICS_TOKEN,
    ...telegramEnv(telegram),
  });
  url = await listeningUrl(main);
}, 60_000);

afterAll(async () => {
  main?.child.kill("SIGTERM");
  await main?.exited;
  await Promise.all([kite?.stop(), yahoo?.stop(), fx?.stop(), telegram?.stop(), receiver?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

const now = () => Math.floor(Date.now() / 1000);

describe("pnpm start, against a fake of every outbound integration", () => {
  it("runs the bundle, not the sources", () => {
    expect(main.child.spawnargs.join(" ")).toMatch(/scripts\/start\.mjs$/);
    expect(main.child.spawnargs.join(" ")).not.toMatch(/tsx/);
  });

  it("quotes from Yahoo and http-json reach /api/prices", async () => {
    const prices = await eventually(
      () => new HttpClient(url).get("/api/prices"),
      (r) => r.body.cme?.GC !== undefined && r.body.fx?.USDINR !== undefined,
      "GC from Yahoo and USDINR from http-json",
    );
    expect(prices.body.cme.GC).toMatchObject(GC);
    expect(prices.body.fx.USDINR).toMatchObject({ price: USDINR });
  });

  it("Kite: the admin's login is exchanged for a token, then a binary tick is a GOLD quote", async () => {
    const admin = await signIn(ADMIN.username, ADMIN.password);
    const login = await admin.get("/api/kite/login");
    const redirect = new URL(login.headers.location as string).searchParams.get("redirect_params");
    const state = new URLSearchParams(redirect ?? "").get("state");
    const callback = await admin.get(`/api/kite/callback?request_token=req-good&state=${state}`);
    expect(callback.headers.location).toBe("/admin?kite=connected");
    await kite.until(() => (kite.latest?.messages.length ?? 0) >= 2, "the ticker subscription");
    expect(kite.connections.map((c) => c.accessToken)).toEqual(["access-of-the-day"]);

    kite.send(goldTick(57_000, 57_010));
    const prices = await eventually(
      () => admin.get("/api/prices"),
      (r) => r.body.mcx?.GOLD?.ask === 57_010,
      "GOLD from the Kite tick",
    );
    expect(prices.body.mcx.GOLD).toMatchObject({ bid: 57_000, ask: 57_010 });
  });

  it("Telegram connects, and a crossing reaches Telegram and a signed webhook", async () => {
    const admin = await signIn(ADMIN.username, ADMIN.password);
    await admin.post("/api/auth/users", {
      username: "trader",
      password: "trader-pass-1",
      alerts_enabled: true,
    });
    const trader = await signIn("trader", "trader-pass-1");
    const connected = await trader.post("/api/telegram/connect", { chatId: CHAT });
    expect(connected.body).toMatchObject({ status: "success" });
    expect(connected.status).toBe(200);
    expect(telegram.textsTo(CHAT)).toHaveLength(1);
    expect((await trader.put("/api/webhook", { url: receiver.url, secret: SECRET })).status).toBe(
      200,
    );

    const before = await eventually(
      () => trader.get("/api/calculations"),
      (r) => typeof r.body.GC_BUY?.spread === "number",
      "GC_BUY from the three providers",
    );
    const threshold = Math.round(before.body.GC_BUY.spread + 50);
    const created = await trader.post("/api/alerts", {
      commodityType: "GC_BUY",
      threshold,
      telegramNotify: true,
      webhookNotify: true,
      telegramMaxNotifications: 3,
    });
    expect(created.status).toBe(200);

    // The engine sees the alert below its threshold, then the ask 100 rupees higher: one crossing.
    // Each tick is sent again until it shows: one sent while the feed's socket was reconnecting
    // (a loaded machine) is lost, and the same prices again make no second crossing.
    await eventually(
      () => {
        kite.send(goldTick(57_001, 57_011));
        return trader.get("/api/calculations");
      },
      (r) => r.body.GC_BUY?.mcx === 57_011,
      "the first tick after the alert",
      30_000,
    );
    const messages = await eventually(
      async () => {
        kite.send(goldTick(57_100, 57_111));
        return telegram.textsTo(CHAT).filter((t) => t.startsWith("🔔"));
      },
      (texts) => texts.length >= 1,
      "the alert on Telegram",
      30_000,
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/Gold Buy/);
    const posts = await eventually(
      async () => receiver.received,
      (got) => got.length === 1,
      "the webhook POST",
      15_000,
    );
    const [post] = posts;
    if (!post) throw new Error("no POST");
    expect(signatureVerifies(SECRET, post)).toBe(true);
    expect(JSON.parse(post.body)).toMatchObject({
      event: "alert.fired",
      symbol: "GC_BUY",
      threshold,
    });
  });

  it("/metrics: 401 without the token, Prometheus text with it, counting what this run did", async () => {
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const res = await fetch(`${url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^spreadwatch_quotes_received_total\{[^}]*key="GOLD"[^}]*\} [1-9]/m);
    expect(text).toMatch(/^spreadwatch_leader\{instance_id="[^"]+"\} 1$/m);
  });
});
