// Live orders across kill -9 (docs/user-guide.md "Live orders"): the production server (`pnpm
// start`: scripts/start.mjs and its bundle) against the fake Kite, a fake Telegram and a webhook
// receiver on loopback. Traders send tickets over HTTP (POST /api/executions with an
// Idempotency-Key, sent again after a kill until answered) while the server is killed with SIGKILL
// at random moments and started again on the same DATA_DIR; the campaigns also meet lost
// answers, 429s and rejected hedges. Counted at the end from the fake Kite's own record: tags
// placed twice, more quantity than a leg allowed, campaigns the traders never asked for, and
// naked legs (a first leg's fill neither hedged nor flattened) no Telegram message and no webhook
// told the trader of. Needs the production build (`pnpm build`).
//   BENCH_CAMPAIGNS=200 BENCH_SEED=1 BENCH_TRADERS=4 BENCH_KILL_MS=1500-6000 BENCH_DEADLINE_MS=240000
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { FakeTelegram } from "../test/fake-telegram.ts";
import { FakeKite } from "../test/fakes/fake-kite.ts";
import { FakeWebhook } from "../test/fakes/fake-webhook.ts";
import { HttpClient, type JsonResponse } from "../test/http-client.ts";
import { listeningUrl, type MainProcess, runMain } from "../test/server.ts";
import { deskPolicy, kiteRecord, placeFault } from "./live-order-desk.ts";

const CAMPAIGNS = Number(process.env.BENCH_CAMPAIGNS ?? 200);
const TRADERS = Number(process.env.BENCH_TRADERS ?? 4);
const [KILL_MIN, KILL_MAX] = (process.env.BENCH_KILL_MS ?? "1500-6000").split("-").map(Number) as [
  number,
  number,
];
let seed = Number(process.env.BENCH_SEED ?? 1);
/** A small deterministic generator: which faults come is repeatable (when kills land is not). */
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const TERMINAL = new Set(["done", "flattened", "naked", "cancelled", "failed"]);
const ADMIN = { username: "admin", password: "Kill-bench-admin-1" };
/** Deadlines, not measures: a loaded machine restarting the server many times is slow. */
const CAMPAIGN_DEADLINE_MS = Number(process.env.BENCH_DEADLINE_MS ?? 240_000);
const NEAR = "GOLD26FEBFUT";
const NEXT = "GOLD26APRFUT";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(what: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await what()) return true;
    await pause(50);
  }
  return false;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const kite = await new FakeKite().start();
const telegram = await new FakeTelegram().start();
const webhook = await new FakeWebhook().start();
const rejectHedgeOf = new Set<string>();
kite.book.policy = deskPolicy(rejectHedgeOf);
const dir = mkdtempSync(join(tmpdir(), "spreadwatch-executions-kill-"));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;

/**
 * GOLD near and next quoting every second for an hour, with Kite's contracts. Stamped a minute
 * ahead: the replay keeps the stamps' spacing from its start, so quotes stamped "now" would be
 * as old as the start-up took (stale after 10 s, on a loaded machine).
 */
function quotesFile(): string {
  const start = Date.now() + 60_000;
  const rows = ["ts,source,key,bid,ask,price,contract,expiry"];
  for (let i = 0; i < 3_600; i++) {
    const ts = start + i * 1_000;
    rows.push(`${ts},mcx,GOLD,127000,127010,,${NEAR},2026-02-05`);
    rows.push(`${ts},mcx,GOLD@next,127500,127540,,${NEXT},2026-04-03`);
  }
  const file = join(dir, "quotes.csv");
  writeFileSync(file, `${rows.join("\n")}\n`);
  return file;
}

let main: MainProcess | undefined;
/** Resolves while the server is up; a new promise while it is down. */
let up: Promise<void> = Promise.resolve();
let kills = 0;

async function start(): Promise<void> {
  main = runMain({
    ...kite.env(),
    TELEGRAM_BOT_TOKEN: "123456:TEST-TOKEN",
    TELEGRAM_BOT_USERNAME: "spreadwatch_test_bot",
    TELEGRAM_API_ROOT: telegram.apiRoot,
    WEBHOOK_ALLOW_PRIVATE: "true",
    DATA_DIR: join(dir, "data"),
    PORT: String(port),
    FEED: "replay",
    REPLAY_FILE: quotesFile(),
    REPLAY_SPEED: "1",
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  await listeningUrl(main);
}

/** Any request: connection errors while the server is down are waited out and sent again. */
async function call(
  client: HttpClient,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  const deadline = Date.now() + CAMPAIGN_DEADLINE_MS;
  for (;;) {
    await up;
    try {
      return await client.request(method, path, options);
    } catch (error) {
      // The process died with the request in flight (or before it): send it again once it is
      // back. Safe for POST /api/executions only because it carries an Idempotency-Key.
      if (Date.now() > deadline) throw error;
      await pause(100);
    }
  }
}

async function expectOk(reply: Promise<JsonResponse>, what: string): Promise<JsonResponse> {
  const res = await reply;
  if (res.status >= 300) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  if (process.env.BENCH_VERBOSE) console.error(what, res.status);
  return res;
}

await start();
const admin = new HttpClient(url);
await expectOk(admin.post("/api/auth/login", ADMIN), "admin login");
const traders: Array<{ client: HttpClient; symbol: string }> = [];
for (let i = 1; i <= TRADERS; i++) {
  const username = `trader${i}`;
  const password = `${username}-pass-1`;
  await expectOk(
    admin.post("/api/auth/users", { username, password, alerts_enabled: true }),
    "new trader",
  );
  const client = new HttpClient(url);
  await expectOk(client.post("/api/auth/login", { username, password }), "trader login");
  kite.requestTokens.set(`req-${i}`, `tok-${i}`);
  kite.requestUsers.set(`req-${i}`, `TR${i}`);
  await expectOk(client.put("/api/profile/kite", { requestToken: `req-${i}` }), "Connect Kite");
  await expectOk(
    admin.put(`/api/admin/live-orders/users/${i + 1}`, { enabled: true, capLots: 10 }),
    "enable",
  );
  await expectOk(client.post("/api/telegram/connect", { chatId: `4242${i}` }), "Telegram");
  await expectOk(
    client.put("/api/webhook", { url: webhook.urlFor(`/hook/${i}`), secret: "s".repeat(32) }),
    "webhook",
  );
  const created = await expectOk(
    client.post("/api/spreads", {
      name: "Gold calendar",
      legs: [
        { name: "a", instrument: "GOLD" },
        { name: "b", instrument: "GOLD@next" },
      ],
      formula: "b - a",
    }),
    "calendar",
  );
  traders.push({ client, symbol: created.body.symbol as string });
}

const faults = { lost: 0, throttled: 0, rejected: 0, killed: 0 };
const known = new Map<string, { lots: number; onHedgeFail: string }>();
let unsettled = 0;
let refusedToTheEnd = 0;
let next = 0;
let running = true;
const started = Date.now();

/** One ticket from creation to a final status, across any number of kills. */
async function campaign(n: number, trader: (typeof traders)[number]): Promise<void> {
  placeFault(kite.book, random, faults);
  const reject = random() < 0.2;
  const onHedgeFail = random() < 0.5 ? "flatten" : "alert";
  const lots = 1 + Math.floor(random() * 2);
  const body = { spread: trader.symbol, side: "BUY", lots, onHedgeFail, dryRun: false };
  const headers = { "idempotency-key": `kill-bench-${n}` };
  let id: string | undefined;
  const deadline = Date.now() + CAMPAIGN_DEADLINE_MS;
  while (!id && Date.now() < deadline) {
    const res = await call(trader.client, "POST", "/api/executions", { body, headers });
    if (res.status === 201) id = res.body.id as string;
    else {
      // 409 right after a start: the legs are not quoted yet (stale legs are refused).
      if (process.env.BENCH_VERBOSE) console.error(n, res.status, JSON.stringify(res.body));
      await pause(200);
    }
  }
  if (!id) {
    refusedToTheEnd++;
    return;
  }
  known.set(id, { lots, onHedgeFail });
  if (reject) {
    rejectHedgeOf.add(id);
    faults.rejected++;
  }
  const rests = await until(
    () => kite.book.tagged(`${id}w1`).some((o) => o.status === "OPEN"),
    CAMPAIGN_DEADLINE_MS,
  );
  const work = kite.book.tagged(`${id}w1`).find((o) => o.status === "OPEN");
  if (rests && work) kite.book.fill(work.order_id);
  const settled = await until(async () => {
    const res = await call(trader.client, "GET", `/api/executions/${id}`);
    return res.status === 200 && TERMINAL.has(res.body.status);
  }, CAMPAIGN_DEADLINE_MS);
  if (!settled) unsettled++;
}

async function worker(trader: (typeof traders)[number]): Promise<void> {
  while (next < CAMPAIGNS) {
    const n = next++;
    await campaign(n, trader);
    if (n % 20 === 19)
      console.error(
        `${n + 1} campaigns asked, ${kills} kills, ${Math.round((Date.now() - started) / 1000)} s`,
      );
  }
}

/** Kills the server at random moments while campaigns work, and starts it again. */
async function killer(): Promise<void> {
  while (running) {
    await pause(KILL_MIN + random() * (KILL_MAX - KILL_MIN));
    if (!running) return;
    const dying = main as MainProcess;
    let release: () => void = () => {};
    up = new Promise((resolve) => {
      release = resolve;
    });
    dying.child.kill("SIGKILL");
    await dying.exited;
    faults.killed++;
    kills++;
    await start();
    release();
  }
}

const killing = killer();
await Promise.all(traders.map(worker));
running = false;
await killing;
await up;

// A naked leg's alert may still be in the outbox of a server killed after writing it: the next
// leader's senders deliver it. Told = a Telegram message or a webhook naming the campaign.
const told = (id: string) =>
  telegram.received.some((m) => m.text.includes(id)) ||
  webhook.received.some((w) => w.body.includes(id));
const record = () => kiteRecord(kite.book, (id) => known.get(id)?.lots ?? 0);
await until(() => record().naked.every(told), 120_000);
const final = record();
const unnoticed = final.naked.filter((id) => !told(id));
const unknownCampaigns = [...final.campaigns].filter((id) => !known.has(id));
const naked = final.naked.length;

(main as MainProcess).child.kill("SIGTERM");
await (main as MainProcess).exited;
await kite.stop();
await telegram.stop();
await webhook.stop();
rmSync(dir, { recursive: true, force: true });
const summary = {
  bench: "executions-kill",
  campaigns: known.size,
  ...faults,
  doubled: final.doubled,
  overQuantity: final.overQuantity.length,
  unknownCampaigns: unknownCampaigns.length,
  naked,
  unnoticed: unnoticed.length,
  unsettled,
  refusedToTheEnd,
};
console.log(
  `live orders across kill -9: ${known.size} campaigns in ${((Date.now() - started) / 1000).toFixed(0)} s, ${kills} kills, faults ${JSON.stringify(faults)}: doubled orders ${final.doubled}, over quantity ${final.overQuantity.length}, campaigns nobody asked for ${unknownCampaigns.length}, naked legs ${naked} (unnoticed ${unnoticed.length}${unnoticed.length ? `: ${unnoticed.join(" ")}` : ""}), unsettled ${unsettled}; load ${loadavg()[0]?.toFixed(2)}`,
);
console.log(`RESULT ${JSON.stringify(summary)}`);
