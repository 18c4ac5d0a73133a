import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isStale } from "@spreadwatch/core";
import { afterEach, describe, expect, it } from "vitest";
import { FakeHttp } from "./fakes/fake-http.ts";
import { FakeYahoo } from "./fakes/fake-yahoo.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { FIXTURES, manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer | undefined;
const fakes: Array<{ stop(): Promise<void> }> = [];

afterEach(async () => {
  await server?.stop();
  server = undefined;
  for (const fake of fakes.splice(0)) await fake.stop();
});

async function health(client: HttpClient) {
  return client.get("/api/health");
}

describe("GET /api/health", () => {
  // A first start backfills the simulated past: a day here, as nothing reads history (a day
  // kept, HISTORY_RETENTION_DAYS). Nothing here measures speed.
  it("reports the simulator live, the database, Telegram, uptime and version", {
    timeout: 200_000,
  }, async () => {
    server = await startTestServer({ env: { HISTORY_RETENTION_DAYS: "1" } });
    const client = new HttpClient(server.url);
    const res = await eventually(
      () => health(client),
      (r) => r.status === 200,
      "a healthy simulator",
    );
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body).toMatchObject({
      ok: true,
      feed: "simulator",
      prices: { fresh: true },
      database: { ok: true, error: null },
      telegram: { configured: false },
      version: "0.1.0",
    });
    expect(res.body.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(res.body.providers).toHaveLength(1);
    expect(res.body.providers[0]).toMatchObject({
      name: "simulator",
      kind: "simulator",
      state: "live",
      reconnects: 0,
      lastError: null,
      silenceMs: 10_000,
    });
    expect(res.body.prices.silenceMs).toBe(10_000);
    expect(res.body.providers[0].keys).toEqual(
      expect.arrayContaining(["GC", "GOLD", "USDINR", "GIFTNIFTY"]),
    );
  });

  it("answers 503 until the hub has a fresh price, and the tRPC query says the same", async () => {
    const feed = manualFeed();
    server = await startTestServer({ feed });
    const client = new HttpClient(server.url);
    const before = await health(client);
    expect(before.status).toBe(503);
    expect(before.body).toMatchObject({
      ok: false,
      feed: "manual",
      prices: { fresh: false, lastQuoteAt: null },
    });
    expect(before.body.providers[0]).toMatchObject({
      name: "manual",
      state: "connecting",
      lastQuoteAt: null,
    });

    feed.push({ source: "fx", key: "USDINR", price: 88.6, ts: Date.now() });
    const after = await health(client);
    expect(after.status).toBe(200);
    expect(after.body.providers[0]).toMatchObject({ state: "live", keys: ["USDINR"] });

    const trpc = await client.get("/api/trpc/health.status");
    expect(trpc.status).toBe(200);
    expect(trpc.body.result.data).toMatchObject({
      ok: true,
      feed: "manual",
      providers: [{ state: "live" }],
    });
  });

  it("says Telegram is configured without showing any secret", async () => {
    server = await startTestServer({
      feed: manualFeed(),
      env: {
        TELEGRAM_BOT_TOKEN: "123456:SECRET-BOT-TOKEN",
        TELEGRAM_API_ROOT: "http://127.0.0.1:9",
        KITE_API_KEY: "secret-kite-key",
        KITE_API_SECRET: "secret-kite-secret",
      },
    });
    const res = await health(new HttpClient(server.url));
    expect(res.body.telegram).toEqual({ configured: true });
    expect(JSON.stringify(res.body)).not.toMatch(/SECRET|secret-kite/);
  });
});

describe("silence is noticed (FEED_SILENCE_SECONDS)", () => {
  it("turns a replay that has stopped stale, and /api/health answers 503", async () => {
    server = await startTestServer({
      env: {
        FEED: "replay",
        REPLAY_FILE: join(FIXTURES, "hand-worked.csv"),
        REPLAY_SPEED: "0",
        FEED_SILENCE_SECONDS: "1",
      },
    });
    const client = new HttpClient(server.url);
    // The file is played at once, then nothing more comes. The default window (10 s) is longer
    // than this wait: only the configured 1 s can make it stale in time.
    const res = await eventually(
      () => health(client),
      (r) => r.status === 503,
      "the replay going stale",
      8_000,
    );
    expect(res.body).toMatchObject({
      ok: false,
      feed: "replay",
      prices: { fresh: false, silenceMs: 1_000 },
    });
    expect(res.body.providers[0]).toMatchObject({
      name: "replay",
      state: "stale",
      silenceMs: 1_000,
    });
    expect(res.body.providers[0].lastQuoteAgeMs).toBeGreaterThan(1_000);
    // The prices themselves are still there, with their own (old) timestamps.
    const prices = await client.get("/api/prices");
    expect(prices.body.cme.GC).toBeDefined();
  });

  it("turns a silent feed stale and back to live on its next quote", async () => {
    const feed = { ...manualFeed(), staleAfterMs: 500 };
    server = await startTestServer({ feed });
    const client = new HttpClient(server.url);
    feed.push({ source: "fx", key: "USDINR", price: 88.6, ts: Date.now() });
    const stale = await eventually(
      () => health(client),
      (r) => r.body.providers[0].state === "stale",
      "the feed going stale",
    );
    expect(stale.status).toBe(503);

    feed.push({ source: "fx", key: "USDINR", price: 88.61, ts: Date.now() });
    const back = await health(client);
    expect(back.status).toBe(200);
    expect(back.body.providers[0]).toMatchObject({ state: "live" });
    expect(back.body.prices.fresh).toBe(true);
  });
});

describe("the composite feed and its health", () => {
  /** Yahoo serves CME gold and silver; a broker endpoint serves GIFT NIFTY. */
  async function startComposite(
    settings: { silenceSeconds?: number; gift?: Record<string, unknown> } = {},
  ) {
    const yahoo = await new FakeYahoo().start();
    const gift = await new FakeHttp().start();
    fakes.push(yahoo, gift);
    let tick = 0;
    yahoo.beforeQuote = () => {
      tick++;
      const time = Math.floor(Date.now() / 1000);
      yahoo.results.set("GC=F", {
        bid: 4050 + tick / 10,
        ask: 4050.3 + tick / 10,
        regularMarketTime: time,
      });
      yahoo.results.set("SI=F", { regularMarketPrice: 50 + tick / 100, regularMarketTime: time });
    };
    // GIFT NIFTY's own clock says 15 s ago: once it stops, its row is stale at once.
    const giftTime = Math.floor(Date.now() / 1000) - 15;
    gift.route("/gift", () => ({ json: { last: 26080.5, at: giftTime } }));
    const dir = mkdtempSync(join(tmpdir(), "spreadwatch-md-"));
    const file = join(dir, "market-data.json");
    const fast = { pollSeconds: 0.03, backoff: { initialSeconds: 0.02, maxSeconds: 0.1 } };
    writeFileSync(
      file,
      JSON.stringify({
        silenceSeconds: settings.silenceSeconds ?? 2,
        providers: {
          yahoo: {
            type: "yahoo",
            keys: ["GC", "SI"],
            baseUrl: yahoo.url,
            cookieUrl: yahoo.cookieUrl,
            ...fast,
          },
          gift: {
            type: "http-json",
            url: `${gift.url}/gift`,
            quotes: [{ key: "GIFTNIFTY", price: "last", ts: "at" }],
            ...fast,
            ...settings.gift,
          },
        },
      }),
    );
    server = await startTestServer({ env: { FEED: "composite", MARKET_DATA_CONFIG: file } });
    return { yahoo, gift, client: new HttpClient(server.url) };
  }

  const states = (body: { providers: Array<{ name: string; state: string }> }) =>
    Object.fromEntries(body.providers.map((p) => [p.name, p.state]));

  it("keeps the others live while one provider is down, its rows going stale, and takes it back", async () => {
    const { gift, client } = await startComposite();
    const up = await eventually(
      () => health(client),
      (r) =>
        r.status === 200 && states(r.body).yahoo === "delayed" && states(r.body).gift === "live",
      "both providers delivering",
    );
    expect(up.body.feed).toBe("composite");
    expect(
      up.body.providers.map((p: { name: string; kind: string; keys: string[] }) => [
        p.name,
        p.kind,
        p.keys,
      ]),
    ).toEqual([
      ["yahoo", "yahoo", ["GC", "SI"]],
      ["gift", "http-json", ["GIFTNIFTY"]],
    ]);

    gift.route("/gift", () => ({ status: 502, json: {} }));
    const down = await eventually(
      () => health(client),
      (r) => states(r.body).gift === "down",
      "the broker endpoint down",
    );
    expect(down.status).toBe(200);
    expect(states(down.body)).toEqual({ yahoo: "delayed", gift: "down" });
    expect(down.body.providers[1]).toMatchObject({
      lastError: "HTTP 502",
      reconnects: expect.any(Number),
    });

    const prices = (
      await eventually(
        () => client.get("/api/prices"),
        (r) => r.body.cme.GC?.timestamp > r.body.zerodha.giftnifty?.timestamp + 10_000,
        "CME quotes moving on",
      )
    ).body;
    expect(prices.cme.GC).toMatchObject({ delayed: true });
    expect(prices.cme.SI).toMatchObject({ delayed: true, lastOnly: true });
    // Stale by the quotes' own times: GIFT NIFTY against the newest quote and the wall clock.
    expect(isStale(prices.zerodha.giftnifty.timestamp, prices.timestamp)).toBe(true);
    expect(isStale(prices.zerodha.giftnifty.timestamp, Date.now())).toBe(true);
    expect(isStale(prices.cme.GC.timestamp, prices.timestamp)).toBe(false);

    const back = Math.floor(Date.now() / 1000);
    gift.route("/gift", () => ({ json: { last: 26090, at: back } }));
    await eventually(
      () => health(client),
      (r) => states(r.body).gift === "live",
      "the endpoint back",
    );
    const again = await client.get("/api/prices");
    expect(again.body.zerodha.giftnifty).toEqual({ price: 26090, timestamp: back * 1000 });
  });

  it("takes a provider's own silenceSeconds: a quiet source goes stale while the rest stay fresh", async () => {
    // GIFT NIFTY's endpoint repeats the same quote, so nothing new arrives from it after the first.
    const { client } = await startComposite({ silenceSeconds: 60, gift: { silenceSeconds: 0.5 } });
    const res = await eventually(
      () => health(client),
      (r) => states(r.body).gift === "stale",
      "the quiet provider stale",
    );
    expect(res.status).toBe(200);
    expect(states(res.body)).toEqual({ yahoo: "delayed", gift: "stale" });
    expect(res.body.providers.map((p: { silenceMs: number }) => p.silenceMs)).toEqual([
      60_000, 500,
    ]);
    expect(res.body.prices).toMatchObject({ fresh: true, silenceMs: 60_000 });
  });

  it("answers 503 once no provider has delivered a fresh price", async () => {
    const { yahoo, gift, client } = await startComposite();
    await eventually(
      () => health(client),
      (r) => r.status === 200,
      "prices flowing",
    );
    yahoo.route("/v7/finance/quote", () => ({ status: 500, json: {} }));
    gift.route("/gift", () => "drop");
    const res = await eventually(
      () => health(client),
      (r) => r.status === 503,
      "no fresh price",
    );
    expect(res.body).toMatchObject({ ok: false, prices: { fresh: false } });
    expect(states(res.body)).toEqual({ yahoo: "down", gift: "down" });
  });
});
