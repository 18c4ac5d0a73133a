import { expect, vi } from "vitest";
import { FakeTelegram } from "../fake-telegram.ts";
import type { HttpClient } from "../http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "../server.ts";
import { CHAT, telegramEnv } from "../telegram-trader.ts";
import { FakeKite } from "./fake-kite.ts";
import { FakeWebhook } from "./fake-webhook.ts";
import { addTrader, signIn } from "./signed-in-trader.ts";

// biome-ignore lint/suspicious/noExplicitAny: tests read raw JSON
type Json = any;

/** The near and next GOLD contracts the manual feed quotes (a calendar's two legs). */
export const NEAR = "GOLD26FEBFUT";
export const NEXT = "GOLD26APRFUT";

/**
 * A server on a manual feed beside a fake Kite; "trader" (user 2) linked to Kite account TR0001
 * through Profile → Connect Kite, live orders enabled for them by the admin, and a GOLD
 * near/next calendar `next − near` of theirs, their Telegram connected to CHAT on a fake Bot API
 * and their webhook on a fake receiver. Quotes are fresh (now) with Kite's contracts.
 */
export async function startLiveOrders() {
  const kite = await new FakeKite().start();
  const telegram = await new FakeTelegram().start();
  const webhook = await new FakeWebhook().start();
  const env = () => ({ ...kite.env(), ...telegramEnv(telegram), WEBHOOK_ALLOW_PRIVATE: "true" });
  let server: TestServer = await startTestServer({ feed: manualFeed(), env: env() });
  let admin = await signIn(server, ADMIN.username, ADMIN.password);
  let trader = await addTrader(server, admin, "trader");
  kite.requestTokens.set("req-trader", "tok-trader");
  kite.requestUsers.set("req-trader", "TR0001");
  const linked = await trader.put("/api/profile/kite", { requestToken: "req-trader" });
  expect(linked.status, JSON.stringify(linked.body)).toBe(200);
  expect((await admin.put("/api/admin/live-orders/users/2", { enabled: true })).status).toBe(200);
  expect((await trader.post("/api/telegram/connect", { chatId: CHAT })).status).toBe(200);
  const hook = await trader.put("/api/webhook", { url: webhook.url, secret: "s".repeat(32) });
  expect(hook.status, JSON.stringify(hook.body)).toBe(200);
  const created = await trader.post("/api/spreads", {
    name: "Gold calendar",
    legs: [
      { name: "a", instrument: "GOLD" },
      { name: "b", instrument: "GOLD@next" },
    ],
    formula: "b - a",
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const symbol = created.body.symbol as string;
  const feed = () => server.feed as ReturnType<typeof manualFeed>;
  /** Near 127000/127010 (10 ticks wide), next 127500/127540 (40 wide: the thinner book). */
  const quote = (near = { bid: 127_000, ask: 127_010 }, next = { bid: 127_500, ask: 127_540 }) => {
    const ts = Date.now();
    feed().push({ source: "mcx", key: "GOLD", ...near, ts, contract: NEAR });
    feed().push({ source: "mcx", key: "GOLD@next", ...next, ts, contract: NEXT });
  };
  quote();
  const ctx = {
    kite,
    telegram,
    webhook,
    symbol,
    get admin() {
      return admin;
    },
    get trader() {
      return trader;
    },
    quote,
    get server() {
      return server;
    },
    /** A ticket, once the definition's value is published (at most once a second). */
    async ticket(body: Json): Promise<Json> {
      return vi.waitFor(
        async () => {
          quote();
          const reply = await trader.post("/api/executions", { spread: symbol, ...body });
          expect(reply.status, JSON.stringify(reply.body)).toBe(201);
          return reply.body;
        },
        { timeout: 10_000, interval: 200 },
      );
    },
    async execution(id: string): Promise<Json> {
      const reply = await trader.get(`/api/executions/${id}`);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body;
    },
    /** Waits for the campaign to reach `status`. */
    async until(id: string, status: string): Promise<Json> {
      return vi.waitFor(
        async () => {
          const body = await ctx.execution(id);
          expect(body.status, JSON.stringify(body)).toBe(status);
          return body;
        },
        { timeout: 15_000, interval: 50 },
      );
    },
    /** The order Kite holds under `tag`, once it is there. */
    async order(tag: string) {
      await kite.until(() => kite.book.tagged(tag).length > 0, `an order tagged ${tag}`, 15_000);
      return kite.book.tagged(tag)[0] as NonNullable<ReturnType<typeof kite.book.tagged>[0]>;
    },
    /** Stops the server, runs `whileDown`, and starts it again on the same DATA_DIR. */
    async restart(whileDown: () => void = () => {}): Promise<void> {
      const { dataDir } = server;
      await server.close();
      whileDown();
      server = await startTestServer({ feed: manualFeed(), env: env(), dataDir });
      quote();
      admin = await signIn(server, ADMIN.username, ADMIN.password);
      trader = await signIn(server, "trader", "trader-pass-1");
    },
    async stop() {
      await server.stop();
      await kite.stop();
      await telegram.stop();
      await webhook.stop();
    },
  };
  return ctx;
}

export type LiveOrdersContext = Awaited<ReturnType<typeof startLiveOrders>>;
export type { HttpClient };
