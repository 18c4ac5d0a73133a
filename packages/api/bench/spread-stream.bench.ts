// Issue 21: the change stream's bytes per client-hour on the default simulator with 20 spread
// definitions in use (goal ≤ 15 MB), against the same server with none in the same run. The real
// server (sse-server.ts, the product's clock); the bench signs in as its admin, makes the 20
// definitions over HTTP (two calendars put GOLD@next and SILVER@next in use, as a trader's
// would), then one client reads the stream as a browser does (gzip, its session cookie) for
// BENCH_SPREAD_STREAM_MINUTES (1) after a warm-up. Twice: the definitions private to the signed-in
// user (everybody's frame, then that user's entries, in the user's own gzip lane), and shared by
// the admin with everybody (in everybody's frame). Issue 22: "positions" is "private" with 20 open
// positions of the signed-in user besides (ten on built-in spreads, ten on the definitions, each
// with a target and a stop): the stream carries nothing of them (their marks are computed in the
// browser from the entries it already sends), so its bytes should be those of "private".
//   BENCH_SPREAD_STREAM_MINUTES=1  BENCH_SPREAD_STREAM_KINDS=none,private,shared,positions  BENCH_SPREAD_STREAM_GZIP=1
import { type ChildProcess, fork } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { get } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createGunzip } from "node:zlib";
import { paritySpread, type SpreadDefinitionInput } from "@spreadwatch/core";
import type { ServerReply, ServerRequest } from "./sse-server.ts";

const MINUTES = Number(process.env.BENCH_SPREAD_STREAM_MINUTES ?? 1);
const KINDS = (process.env.BENCH_SPREAD_STREAM_KINDS ?? "none,private,shared,positions").split(",");
const GZIP = process.env.BENCH_SPREAD_STREAM_GZIP ?? "1";
const WARMUP_MS = 5_000;
const GOAL_MB = 15;
/** BENCH_SPREAD_STREAM_DUMP=file: every message received while measuring, one JSON a line. */
const DUMP = process.env.BENCH_SPREAD_STREAM_DUMP;
const PASSWORD = "bench-admin-password-1";

const legs = (pairs: Record<string, string>) =>
  Object.entries(pairs).map(([name, instrument]) => ({ name, instrument }));
const spread = (name: string, pairs: Record<string, string>, formula: string) => ({
  name,
  legs: legs(pairs),
  formula,
});

/** Twenty definitions a desk on the default instruments would watch. */
export const TWENTY: SpreadDefinitionInput[] = [
  spread("Gold/silver MCX", { g: "GOLD", s: "SILVER" }, "g / s"),
  spread("Gold/silver COMEX", { g: "GC", s: "SI" }, "g / s"),
  spread("Gold near/next", { a: "GOLD", b: "GOLD@next" }, "a - b"),
  spread("Silver near/next", { a: "SILVER", b: "SILVER@next" }, "a - b"),
  { ...paritySpread("GOLD", "GC", "10 / TROY_OUNCE_GRAMS", 0.03), name: "Gold parity 3 %" },
  { ...paritySpread("SILVER", "SI", "1000 / TROY_OUNCE_GRAMS", 0.05), name: "Silver parity 5 %" },
  { ...paritySpread("CRUDEOIL", "CL", "1", 0), name: "Crude parity, no duty" },
  { ...paritySpread("COPPER", "HG", "POUNDS_PER_KG", 0.02), name: "Copper parity 2 %" },
  { ...paritySpread("NATURALGAS", "NG", "1", 0), name: "Natural gas parity, no duty" },
  spread("GIFT NIFTY basis", { f: "GIFTNIFTY", s: "NIFTY50" }, "f - s"),
  spread("Gold basis", { f: "GC", s: "XAUUSD" }, "f - s"),
  spread("Silver basis", { f: "SI", s: "XAGUSD" }, "f - s"),
  spread(
    "MCX gold against spot",
    { g: "GOLD", x: "XAUUSD", fx: "USDINR" },
    "g - x * 10 / TROY_OUNCE_GRAMS * fx",
  ),
  spread("Crude/natural gas MCX", { c: "CRUDEOIL", n: "NATURALGAS" }, "c / n"),
  spread("Copper/gold COMEX", { c: "HG", g: "GC" }, "c / g"),
  spread("WTI against gas", { c: "CL", n: "NG" }, "c - n * 10"),
  spread("Gold less silver", { g: "GOLD", s: "SILVER" }, "g - s * 0.8"),
  spread("MCX crude in dollars", { c: "CRUDEOIL", fx: "USDINR" }, "c / fx"),
  spread("Gold/crude MCX", { g: "GOLD", c: "CRUDEOIL" }, "g / c"),
  spread("Silver/copper MCX", { s: "SILVER", c: "COPPER" }, "s / c"),
];

function start(dataDir: string) {
  const child: ChildProcess = fork(fileURLToPath(new URL("./sse-server.ts", import.meta.url)), {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      BENCH_CLOCK: "plain",
      BENCH_INSTRUMENTS: "default",
      BENCH_ADMIN_PASSWORD: PASSWORD,
    },
    execArgv: ["--import", import.meta.resolve("tsx")],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`sse-server exited early (${code})`)));
    child.on("message", (reply: ServerReply) => {
      if (reply.type === "ready") resolve({ child, url: reply.url });
    });
  });
}

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status}`);
  return (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

/** Bytes and messages one stream client receives in `ms` after the warm-up. */
function measure(url: string, cookie: string, ms: number) {
  return new Promise<{
    bytes: number;
    messages: number;
    symbols: Set<string>;
    positional: number;
  }>((resolve, reject) => {
    let recording = false;
    let bytes = 0;
    let messages = 0;
    /** Messages with a field only a position has: none is expected (marks are the browser's). */
    let positional = 0;
    let text = "";
    const symbols = new Set<string>();
    const request = get(
      `${url}/api/trpc/market.onSnapshot`,
      { headers: { cookie, ...(GZIP === "1" && { "accept-encoding": "gzip, deflate, br" }) } },
      (res) => {
        res.on("data", (chunk: Buffer) => {
          if (recording) bytes += chunk.length;
        });
        const decoded = res.headers["content-encoding"] === "gzip" ? res.pipe(createGunzip()) : res;
        decoded.setEncoding("utf8");
        decoded.on("data", (chunk: string) => {
          text += chunk;
          for (let end = text.indexOf("\n\n"); end !== -1; end = text.indexOf("\n\n")) {
            const event = text.slice(0, end);
            text = text.slice(end + 2);
            if (!event.startsWith("data: ")) continue;
            if (recording) messages++;
            if (/targetInr|stopInr|campaignId|markSymbol/.test(event)) positional++;
            if (recording && DUMP) appendFileSync(DUMP, `${event.slice(6)}\n`);
            for (const match of event.matchAll(/"(SP\d+)_(?:BUY|SELL)"/g))
              symbols.add(match[1] as string);
          }
        });
      },
    );
    request.on("error", reject);
    setTimeout(() => {
      recording = true;
    }, WARMUP_MS);
    setTimeout(() => {
      request.destroy();
      resolve({ bytes, messages, symbols, positional });
    }, WARMUP_MS + ms);
  });
}

/** Twenty open positions: two on each built-in spread, one on each of ten definitions. */
async function openTwenty(url: string, cookie: string, definitions: readonly string[]) {
  const spreads = [
    ...["GC", "SI", "HG", "CL", "NG"].flatMap((s) => [s, s]),
    ...definitions.slice(0, 10),
  ];
  for (const [i, spread] of spreads.entries()) {
    const res = await fetch(`${url}/api/positions`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      // A typed entry: the bench does not wait for every spread to have a live value.
      body: JSON.stringify({
        spread,
        side: i % 2 === 0 ? "BUY" : "SELL",
        lots: 1 + (i % 3),
        entry: 0,
        targetInr: 50_000,
        stopInr: -50_000,
      }),
    });
    if (res.status !== 201)
      throw new Error(`position on ${spread}: ${res.status} ${await res.text()}`);
  }
}

async function run(kind: string) {
  const dataDir = mkdtempSync(join(tmpdir(), "spreadwatch-spread-stream-"));
  const server = await start(dataDir);
  try {
    const cookie = await signIn(server.url);
    const symbols: string[] = [];
    if (kind !== "none") {
      for (const definition of TWENTY) {
        const res = await fetch(`${server.url}/api/spreads`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body: JSON.stringify({ ...definition, shared: kind === "shared" }),
        });
        if (res.status !== 201)
          throw new Error(`${definition.name}: ${res.status} ${await res.text()}`);
        symbols.push(((await res.json()) as { symbol: string }).symbol);
      }
    }
    if (kind === "positions") await openTwenty(server.url, cookie, symbols);
    const load = loadavg()[0] ?? 0;
    const {
      bytes,
      messages,
      symbols: live,
      positional,
    } = await measure(server.url, cookie, MINUTES * 60_000);
    const mbPerHour = (bytes * 60) / MINUTES / 1e6;
    console.log(
      `spread stream: ${kind === "none" ? "no definitions" : kind === "positions" ? "20 definitions private and 20 open positions" : `20 definitions ${kind}`} (${live.size} seen live), ` +
        `one ${GZIP === "1" ? "gzip" : "plain"} client, ${MINUTES} min on the default simulator (load ${load.toFixed(2)}): ` +
        `${mbPerHour.toFixed(1)} MB per client-hour (goal ≤ ${GOAL_MB}), ${(messages / (MINUTES * 60)).toFixed(1)} messages/s, ` +
        `${(bytes / Math.max(1, messages)).toFixed(0)} B per message, ${positional} naming a position`,
    );
    console.log(
      `RESULT ${JSON.stringify({ bench: "spread-stream-bytes", kind, gzip: GZIP === "1", minutes: MINUTES, mbPerHour, messagesPerSecond: messages / (MINUTES * 60), live: live.size })}`,
    );
  } finally {
    server.child.send({ type: "stop" } satisfies ServerRequest);
    await new Promise((resolve) => server.child.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const kind of KINDS) await run(kind);
process.exit(0);
