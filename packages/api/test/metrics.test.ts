// GET /metrics as an operator's Prometheus sees it (docs/operations.md, "Monitoring"): off unless
// METRICS_TOKEN is set, then only for the bearer of that token, and every family moves with
// what the server really did: quotes from a manual feed, a live stream, an alert firing to a
// refusing Telegram and a held webhook, a throttled login.
import { get } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config/index.ts";
import { FakeTelegram } from "./fake-telegram.ts";
import { startCluster } from "./fakes/cluster.ts";
import { pushCrossings } from "./fakes/crossing-feed.ts";
import { FakeWebhook } from "./fakes/fake-webhook.ts";
import { eventually, until } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";
import { dataEvents } from "./stream-state.ts";
import { CHAT, settled, telegramEnv, traderWithAlert } from "./telegram-trader.ts";

const TOKEN = "metrics-token-0123456789abcdef";
const STREAM_PATH = "/api/trpc/market.onSnapshot";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(env: Record<string, string> = {}, feed = manualFeed()) {
  const started = await startTestServer({ feed, env: { METRICS_TOKEN: TOKEN, ...env } });
  cleanups.push(() => started.stop());
  return { server: started, feed };
}

function fetchMetrics(server: TestServer, headers: Record<string, string> = {}, method = "GET") {
  return fetch(`${server.url}/metrics`, { method, headers });
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus' text format (version 0.0.4): `# TYPE` lines and `name{labels} value` samples. */
function parse(text: string) {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1] as string, type[2] as string);
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) continue;
    const labels: Record<string, string> = {};
    for (const [, name, value] of (sample[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[name as string] = value as string;
    const raw = sample[3] as string;
    const value = raw === "+Inf" ? Number.POSITIVE_INFINITY : Number(raw);
    samples.push({ name: sample[1] as string, labels, value });
  }
  /** The one sample of `name` whose labels include `labels`; undefined when there is none. */
  const value = (name: string, labels: Record<string, string> = {}) => {
    const found = samples.filter(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    );
    if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} is ambiguous`);
    return found[0]?.value;
  };
  return { types, samples, value };
}

async function scrape(server: TestServer) {
  const response = await fetchMetrics(server, { authorization: `Bearer ${TOKEN}` });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-store");
  return parse(await response.text());
}

/** A live stream held open from this test, reading everything it is sent. */
function openStream(url: string): Promise<{ text(): string; close(): void }> {
  return new Promise((resolve, reject) => {
    const request = get(`${url}${STREAM_PATH}`, { agent: false }, (res) => {
      let received = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        received += chunk;
      });
      res.on("error", () => {});
      resolve({ text: () => received, close: () => request.destroy() });
    });
    request.on("error", reject);
    cleanups.push(() => request.destroy());
  });
}

describe("GET /metrics is off unless METRICS_TOKEN is set", () => {
  it("answers 404 without METRICS_TOKEN, whatever the request carries", async () => {
    const { server: plain } = await server({ METRICS_TOKEN: "" });
    const tries: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}` }];
    for (const headers of tries) {
      const response = await fetchMetrics(plain, headers);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Not found" });
    }
  });

  it("refuses a scrape without the right bearer token with a 401 and no metrics", async () => {
    const { server: guarded } = await server();
    const refused: Record<string, string>[] = [
      {},
      { authorization: "Bearer" },
      { authorization: "Bearer " },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, 16)}` },
      { authorization: `Bearer ${TOKEN} ${TOKEN}` },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString("base64")}` },
      { authorization: TOKEN },
      { cookie: `token=${TOKEN}` },
    ];
    for (const headers of refused) {
      const response = await fetchMetrics(guarded, headers);
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: expect.stringContaining("Authorization: Bearer") });
      expect(text).not.toContain("process_cpu");
    }
    // Nor through the query string, nor by another method.
    expect((await fetch(`${guarded.url}/metrics?token=${TOKEN}`)).status).toBe(401);
    const post = await fetchMetrics(guarded, { authorization: `Bearer ${TOKEN}` }, "POST");
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    // The scheme's name is case-insensitive (RFC 9110), the token is not.
    expect((await fetchMetrics(guarded, { authorization: `bearer ${TOKEN}` })).status).toBe(200);
    const upper = await fetchMetrics(guarded, { authorization: `Bearer ${TOKEN.toUpperCase()}` });
    expect(upper.status).toBe(401);
  });

  it("rejects a short or spaced METRICS_TOKEN at start, without echoing it", () => {
    const problems = (value: string) => {
      try {
        loadConfig({ METRICS_TOKEN: value });
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
      }
      return [];
    };
    expect(problems("short-secret")).toEqual([
      "Invalid METRICS_TOKEN: must be at least 16 characters (e.g. the output of: openssl rand -hex 32)",
    ]);
    expect(problems("a token with spaces in it")).toEqual([
      "Invalid METRICS_TOKEN: must be printable ASCII without spaces (it is sent as a Bearer token)",
    ]);
    expect(loadConfig({ METRICS_TOKEN: ` ${TOKEN} ` }).metricsToken).toBe(TOKEN);
    expect(loadConfig({}).metricsToken).toBeUndefined();
  });
});

describe("GET /metrics with the token", () => {
  it("gives each server its own registry: two in one process report their own instance", async () => {
    const { server: a } = await server({ INSTANCE_ID: "box-a" });
    const { server: b } = await server({ INSTANCE_ID: "box-b" });
    const [ma, mb] = await Promise.all([scrape(a), scrape(b)]);
    expect(ma.samples.filter((s) => s.name === "spreadwatch_leader")).toEqual([
      { name: "spreadwatch_leader", labels: { instance_id: "box-a" }, value: 1 },
    ]);
    expect(mb.value("spreadwatch_leader", { instance_id: "box-b" })).toBe(1);
  });

  it("reports process metrics and every Spreadwatch family, moving with what happened", async () => {
    const [telegram, receiver] = await Promise.all([
      new FakeTelegram().start(),
      new FakeWebhook().start(),
    ]);
    cleanups.push(() => Promise.all([telegram.stop(), receiver.stop()]));
    const { server: s, feed } = await server({
      ...telegramEnv(telegram),
      WEBHOOK_ALLOW_PRIVATE: "true",
    });

    const before = await scrape(s);
    for (const name of [
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "process_start_time_seconds",
      "nodejs_heap_size_used_bytes",
    ])
      expect(before.value(name), name).toBeGreaterThan(0);
    expect(before.value("nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(before.value("spreadwatch_stream_clients")).toBe(0);
    expect(before.value("spreadwatch_quotes_received_total")).toBeUndefined();
    // No quote yet: the feed's age is +Inf, which any "silent for N s" rule catches.
    expect(
      before.value("spreadwatch_provider_last_quote_age_seconds", { provider: "manual" }),
    ).toBe(Number.POSITIVE_INFINITY);
    for (const channel of ["telegram", "webhook"]) {
      expect(before.value("spreadwatch_outbox_pending", { channel })).toBe(0);
      expect(before.value("spreadwatch_outbox_oldest_age_seconds", { channel })).toBe(0);
      expect(before.value("spreadwatch_delivery_attempts_total", { channel })).toBe(0);
      for (const outcome of ["sent", "failed"])
        expect(before.value("spreadwatch_alert_firings_total", { channel, outcome })).toBe(0);
    }
    for (const scope of ["user_address", "address"])
      expect(before.value("spreadwatch_login_throttled_total", { scope })).toBe(0);
    expect(before.types.get("spreadwatch_quotes_received_total")).toBe("counter");
    expect(before.types.get("spreadwatch_outbox_oldest_age_seconds")).toBe("gauge");

    // A trader whose GC_BUY alert goes to Telegram (which now refuses the chat) and a webhook
    // that holds its answer; a stream open; then GC_BUY crosses 0 once.
    const { trader } = await traderWithAlert(s, { webhookNotify: true });
    expect(
      (await trader.put("/api/webhook", { url: receiver.url, secret: "s".repeat(24) })).status,
    ).toBe(200);
    telegram.refuseChat(CHAT);
    receiver.hold("/hook");
    const stream = await openStream(s.url);
    const pushedAt = Date.now();
    pushCrossings(feed, 1);
    await until(() => receiver.arrived.length === 1, "the webhook POST to arrive");
    await eventually(
      () => s.services.store.outbox.list(),
      (rows) => rows.some((r) => r.channel === "telegram" && r.failedAt !== null),
      "Telegram to refuse the alert",
    );

    const during = await scrape(s);
    const scrapedAt = Date.now();
    expect(during.value("spreadwatch_stream_clients")).toBe(1);
    const quotes = (source: string, key: string) =>
      during.value("spreadwatch_quotes_received_total", { provider: "manual", source, key });
    expect([quotes("fx", "USDINR"), quotes("cme", "GC"), quotes("mcx", "GOLD")]).toEqual([1, 1, 2]);
    const age = during.value("spreadwatch_provider_last_quote_age_seconds", { provider: "manual" });
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThanOrEqual((scrapedAt - pushedAt) / 1000);
    // The webhook is still in flight: one pending, one attempt; Telegram refused for good.
    expect(during.value("spreadwatch_outbox_pending", { channel: "webhook" })).toBe(1);
    expect(during.value("spreadwatch_outbox_pending", { channel: "telegram" })).toBe(0);
    const oldest = during.value("spreadwatch_outbox_oldest_age_seconds", { channel: "webhook" });
    expect(oldest).toBeGreaterThanOrEqual(0);
    expect(oldest).toBeLessThanOrEqual((scrapedAt - pushedAt) / 1000);
    expect(during.value("spreadwatch_delivery_attempts_total", { channel: "webhook" })).toBe(1);
    expect(during.value("spreadwatch_delivery_attempts_total", { channel: "telegram" })).toBe(1);
    expect(during.value("spreadwatch_delivery_failures_total", { channel: "telegram" })).toBe(1);
    expect(
      during.value("spreadwatch_alert_firings_total", { channel: "telegram", outcome: "failed" }),
    ).toBe(1);
    expect(
      during.value("spreadwatch_alert_firings_total", { channel: "webhook", outcome: "sent" }),
    ).toBe(0);

    receiver.release("/hook");
    await settled(s);
    // A stranger guessing the trader's password: the sixth try from one address is throttled.
    const stranger = new HttpClient(s.url);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await stranger.post("/api/auth/login", { username: "trader", password: `guess-${i}` }))
          .status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

    const after = await eventually(
      () => scrape(s),
      (m) => m.value("spreadwatch_stream_messages_sent_total") === dataEvents(stream.text()).length,
      "the stream's messages to arrive",
    );
    expect(
      after.value("spreadwatch_alert_firings_total", { channel: "webhook", outcome: "sent" }),
    ).toBe(1);
    expect(after.value("spreadwatch_delivery_failures_total", { channel: "webhook" })).toBe(0);
    expect(after.value("spreadwatch_outbox_pending", { channel: "webhook" })).toBe(0);
    expect(after.value("spreadwatch_outbox_oldest_age_seconds", { channel: "webhook" })).toBe(0);
    expect(after.value("spreadwatch_login_throttled_total", { scope: "user_address" })).toBe(1);
    expect(after.value("spreadwatch_login_throttled_total", { scope: "address" })).toBe(0);
    expect(after.value("spreadwatch_leader", { instance_id: s.services.instance.id })).toBe(1);
    // Every snapshot and delta the client got was counted, and its bytes (pings too, at most
    // everything the client received).
    const frames = dataEvents(stream.text());
    expect(frames.length).toBeGreaterThanOrEqual(1);
    const dataBytes = frames.reduce((n, f) => n + Buffer.byteLength(`data: ${f}\n\n`), 0);
    const bytes = after.value("spreadwatch_stream_bytes_sent_total") as number;
    expect(bytes).toBeGreaterThanOrEqual(dataBytes);
    expect(bytes).toBeLessThanOrEqual(Buffer.byteLength(stream.text()));

    stream.close();
    await eventually(
      () => scrape(s),
      (m) => m.value("spreadwatch_stream_clients") === 0,
      "the stream to be counted as gone",
    );
  }, 30_000);
});

describe("GET /metrics on two instances (PostgreSQL and Redis)", () => {
  it("each says whether it leads; both count the leader's quotes and see the shared outbox", async () => {
    const cluster = await startCluster({ METRICS_TOKEN: TOKEN });
    cleanups.push(() => cluster.stop());
    const { leader, other, feed } = cluster;
    await traderWithAlert(other, { telegramMaxNotifications: 5 });
    await eventually(
      async () => leader.services.alertEngine.watchedCount,
      (n) => n === 1,
      "the leader to watch the alert",
    );
    // Telegram hangs: the firing's message stays in the outbox, which both instances report.
    cluster.telegram.hang();
    pushCrossings(feed, 1);
    const both = () => Promise.all([scrape(leader), scrape(other)]);
    const [ml, mo] = await eventually(
      both,
      (ms) =>
        ms.every(
          (m) =>
            m.value("spreadwatch_quotes_received_total", { key: "GOLD" }) === 2 &&
            m.value("spreadwatch_outbox_pending", { channel: "telegram" }) === 1,
        ) &&
        // The message is queued before the leader's sender picks it up: wait for its attempt.
        (ms[0].value("spreadwatch_delivery_attempts_total", { channel: "telegram" }) ?? 0) >= 1,
      "both instances to count the quotes and the queued message, and the leader to try it",
    );
    expect(ml.value("spreadwatch_leader", { instance_id: "leader" })).toBe(1);
    expect(mo.value("spreadwatch_leader", { instance_id: "other" })).toBe(0);
    // Only the leader sends: the other instance never attempted a delivery.
    expect(ml.value("spreadwatch_delivery_attempts_total", { channel: "telegram" })).toBe(1);
    expect(mo.value("spreadwatch_delivery_attempts_total", { channel: "telegram" })).toBe(0);
    for (const m of [ml, mo])
      expect(
        m.value("spreadwatch_outbox_oldest_age_seconds", { channel: "telegram" }),
      ).toBeGreaterThanOrEqual(0);
  }, 120_000);
});
