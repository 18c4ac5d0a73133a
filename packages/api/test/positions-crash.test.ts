// Paper positions across kill -9 (docs/http-api.md "Positions API (paper)"): the server as `pnpm
// start` runs it (runMain: scripts/start.mjs and the bundle) is killed with SIGKILL while eight
// clients open, partially close and roll positions, 12 times at different moments, and started
// again on the same DATA_DIR each time. Every start checks what is stored against what the clients
// were told: every acknowledged write is there, a refused one is not; per position, closed lots +
// open lots = the lots it was opened with; a roll is whole (the old position closed by one "roll"
// close of every lot, one new position holding them in the same campaign) or absent; a keyed
// open, close or roll retried after the crash is there exactly once; and the open and closed
// lists agree with the closed trades' CSV. Made to fail once by splitting a close's two writes
// (and, apart, a roll's) with 5 ms between them: a kill in between left a close without its lots.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { addTrader, startWithTrader } from "./fakes/signed-in-trader.ts";
import { HttpClient, type JsonResponse } from "./http-client.ts";
import { ADMIN, listeningUrl, type MainProcess, runMain } from "./server.ts";

// biome-ignore lint/suspicious/noExplicitAny: the test reads raw JSON
type Json = any;

type Kind = "open" | "close" | "roll";

/**
 * One write a client sent. Each carries a unique number, `tag`: an open's note is `w<tag>`, a
 * close's price and a roll's exit are `tag`, so what is stored names the request it came from.
 */
interface Write {
  tag: number;
  kind: Kind;
  positionId?: number;
  key?: string;
  body: Json;
  /** acked: 2xx; refused: 4xx; unknown: no answer (the process died with it in flight). */
  outcome: "acked" | "refused" | "unknown";
  response?: Json;
  /** Sent again after the restart (keyed ones only). */
  retried?: boolean;
}

const PASSWORD = "trader-pass-1";
/**
 * When each round's kill comes: after that many acknowledged writes, and that many ms later, so
 * the kills land at different points of the requests the server is running.
 */
const KILLS = Array.from({ length: 12 }, (_, i) => ({ acks: 5 + 4 * i, lagMs: i % 8 }));
const dir = mkdtempSync(join(tmpdir(), "spreadwatch-positions-crash-"));
const dataDir = join(dir, "data");
const writes = new Map<number, Write>();
let nextTag = 10_000;
/** A fixed seed: which writes go out is the same every run (when they land is not). */
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

let main: MainProcess | undefined;

afterAll(async () => {
  if (main && main.child.exitCode === null && main.child.signalCode === null) {
    main.child.kill("SIGKILL");
    await main.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A replay of old quotes: the server has a feed, and every entry and exit here is typed. */
function replayFile(): string {
  const at = Date.parse("2026-11-20T09:15:00.000Z");
  const file = join(dir, "quotes.csv");
  writeFileSync(
    file,
    [
      "ts,source,key,bid,ask,price",
      `${at},fx,USDINR,,,84`,
      `${at},cme,GC,2650,2651,`,
      `${at},mcx,GOLD,76000,76010,`,
      "",
    ].join("\n"),
  );
  return file;
}

async function start(first = false): Promise<HttpClient> {
  main = runMain({
    DATA_DIR: dataDir,
    FEED: "replay",
    REPLAY_FILE: replayFile(),
    REPLAY_SPEED: "0",
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  const url = await listeningUrl(main);
  if (first) {
    const admin = new HttpClient(url);
    expect((await admin.post("/api/auth/login", ADMIN)).status).toBe(200);
    const account = { username: "trader", password: PASSWORD };
    expect((await admin.post("/api/auth/users", account)).status).toBe(200);
  }
  const trader = new HttpClient(url);
  const login = await trader.post("/api/auth/login", { username: "trader", password: PASSWORD });
  expect(login.status).toBe(200);
  return trader;
}

function newWrite(kind: Kind, fields: Omit<Write, "tag" | "kind" | "outcome" | "body">): Write {
  const tag = nextTag++;
  const lots = 3 + Math.floor(random() * 6);
  const body =
    kind === "open"
      ? { spread: "GC", side: pick(["BUY", "SELL"]), lots, entry: 1000, note: `w${tag}` }
      : kind === "close"
        ? { lots: 1 + Math.floor(random() * 2), price: tag }
        : { exit: tag, entry: tag + 0.5 };
  const write: Write = { tag, kind, body, outcome: "unknown", ...fields };
  writes.set(tag, write);
  return write;
}

function send(client: HttpClient, write: Write): Promise<JsonResponse> {
  const path =
    write.kind === "open"
      ? "/api/positions"
      : `/api/positions/${write.positionId}/${write.kind === "close" ? "close" : "roll"}`;
  return client.request("POST", path, {
    body: write.body,
    ...(write.key && { headers: { "idempotency-key": write.key } }),
  });
}

/** Records the answer; anything but 2xx or 4xx is a failure of the server. */
function settle(write: Write, res: JsonResponse): void {
  if (res.status >= 200 && res.status < 300) {
    write.outcome = "acked";
    write.response = res.body;
  } else if (res.status >= 400 && res.status < 500) write.outcome = "refused";
  else throw new Error(`${write.kind} ${write.tag} answered ${res.status}: ${res.body}`);
}

interface Open {
  id: number;
  lots: number;
  /** Rolls behind it: GC (0) rolls to @next (1), that to @far (2), which cannot roll. */
  depth: number;
}

/**
 * Writes from eight clients at once, each sending its next as soon as the last is answered,
 * until `acks` of them have been acknowledged: then (`lagMs` later) the process is killed with
 * SIGKILL, with the other clients' writes in flight. Answers the writes it cut.
 */
async function burstThenKill(
  client: HttpClient,
  pool: Open[],
  { acks, lagMs }: { acks: number; lagMs: number },
): Promise<Write[]> {
  const server = main as MainProcess;
  let acked = 0;
  let killing = false;
  let killed = false;
  const cut: Write[] = [];
  const next = (): Write => {
    const target = pool.length > 0 ? pick(pool) : undefined;
    const r = random();
    if (!target || r < 0.25) return newWrite("open", { key: `open-${nextTag}` });
    if (r < 0.55) return newWrite("close", { positionId: target.id });
    if (r < 0.8 || target.depth >= 2)
      return newWrite("close", { positionId: target.id, key: `close-${nextTag}` });
    return newWrite("roll", {
      positionId: target.id,
      ...(random() < 0.5 && { key: `roll-${nextTag}` }),
    });
  };
  const learn = (write: Write) => {
    const at = pool.findIndex((p) => p.id === write.positionId);
    const depth = pool[at]?.depth ?? 0;
    if (write.outcome === "refused") {
      if (at >= 0) pool.splice(at, 1);
    } else if (write.kind === "open")
      pool.push({ id: write.response.id, lots: write.body.lots, depth });
    else if (at >= 0 && write.response.position === null) pool.splice(at, 1);
    else if (write.kind === "close" && at >= 0) (pool[at] as Open).lots -= write.body.lots;
    else if (write.kind === "roll") {
      if (at >= 0) pool.splice(at, 1);
      const { id, lots } = write.response.position;
      pool.push({ id, lots, depth: depth + 1 });
    }
  };
  const worker = async () => {
    while (!killed) {
      const write = next();
      let res: JsonResponse;
      try {
        res = await send(client, write);
      } catch {
        // The connection died with the process: the client was told nothing.
        cut.push(write);
        return;
      }
      settle(write, res);
      if (write.outcome === "acked" || write.kind !== "open") learn(write);
      if (write.outcome === "acked" && ++acked >= acks && !killing) {
        killing = true;
        // The answer just read left the server at the start of its next request; a lag of a
        // few ms (the clients keep writing) lands the kill further into whatever it runs then.
        // This timer places a fault, it waits for nothing: killing a counted number of sends
        // later instead cut 0–1 committed-but-unanswered writes a run (5–7 with the lag), and
        // the assertion below that kills land inside requests then failed one run in three.
        setTimeout(() => {
          killed = true;
          server.child.kill("SIGKILL");
        }, lagMs);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  await server.exited;
  return cut;
}

/** After a start: every keyed write of the last run sent again, as a client retrying would. */
async function retryKeyed(client: HttpClient): Promise<void> {
  for (const write of writes.values()) {
    if (!write.key || write.outcome === "refused" || write.retried) continue;
    write.retried = true;
    const before = write.outcome === "acked" ? write.response : undefined;
    const res = await send(client, write);
    if (before) {
      expect(res.status, `retry of acknowledged ${write.key}`).toBe(
        write.kind === "open" ? 201 : 200,
      );
      if (write.kind === "open") expect(res.body.id).toBe(before.id);
      else expect(res.body.closed).toEqual(before.closed);
      if (write.kind === "roll") expect(res.body.position.id).toBe(before.position.id);
    } else {
      // Not known to have happened: the retry makes it happen once, or is refused (the
      // position has fewer lots or is closed by now); it never makes it twice.
      settle(write, res);
    }
  }
}

interface CsvLine {
  closeId: number;
  positionId: number;
  campaignId: number;
  lots: number;
  exit: number;
  reason: string;
}

/**
 * What is stored, read over HTTP, checked against every write the clients sent. Answers the open
 * positions and whether a write is stored.
 */
async function verify(
  client: HttpClient,
): Promise<{ open: Open[]; stored: (write: Write) => boolean }> {
  const openRes = await client.get("/api/positions");
  const closedRes = await client.get("/api/positions?status=closed");
  const csvRes = await client.get("/api/positions/closed.csv");
  expect([openRes.status, closedRes.status, csvRes.status]).toEqual([200, 200, 200]);
  expect(csvRes.headers["content-type"]).toMatch(/^text\/csv/);
  const open: Json[] = openRes.body.positions;
  const closed: Json[] = closedRes.body.positions;
  const all = [...open, ...closed];
  const byId = new Map(all.map((p) => [p.id as number, p]));
  expect(byId.size, "a position listed twice").toBe(all.length);
  for (const p of open) expect([p.status, p.lots > 0]).toEqual(["open", true]);
  for (const p of closed) expect([p.status, p.lots]).toEqual(["closed", 0]);

  // Every close is one a client sent, to that position, once.
  const closes = all.flatMap((p) => p.closes as Json[]);
  const closeByTag = new Map<number, Json>();
  for (const c of closes) {
    const write = writes.get(c.exit);
    expect(write, `close at ${c.exit} that no client sent`).toBeDefined();
    expect(closeByTag.has(c.exit), `request ${c.exit} applied twice`).toBe(false);
    closeByTag.set(c.exit, c);
    expect(write?.outcome, `refused request ${c.exit} is stored`).not.toBe("refused");
    expect([c.positionId, c.reason]).toEqual([write?.positionId, write?.kind]);
    if (write?.kind === "close") expect(c.lots).toBe(write.body.lots);
  }

  // Per position: closed + open lots = the lots it was opened with (never more closed).
  const roots = new Map<string, Json>();
  const successors = new Map<number, Json[]>();
  for (const p of all) {
    const own = (p.closes as Json[]).reduce((sum, c) => sum + c.lots, 0);
    let opened: number;
    if (p.rolledFromId === null) {
      const write = writes.get(Number(String(p.note).slice(1)));
      expect(write?.kind, `position ${p.id} that no client opened`).toBe("open");
      expect(write?.outcome, `refused open ${p.note} is stored`).not.toBe("refused");
      expect(roots.has(p.note), `open ${p.note} stored twice`).toBe(false);
      roots.set(p.note, p);
      opened = write?.body.lots;
    } else {
      const list = successors.get(p.rolledFromId) ?? [];
      successors.set(p.rolledFromId, [...list, p]);
      const roll = (byId.get(p.rolledFromId)?.closes as Json[] | undefined)?.find(
        (c) => c.reason === "roll",
      );
      expect(
        roll,
        `position ${p.id} rolled from ${p.rolledFromId}, which has no roll`,
      ).toBeDefined();
      expect(p.entry).toBe(roll.exit + 0.5);
      opened = roll.lots;
    }
    expect(own + p.lots, `position ${p.id}: closed ${own} + open ${p.lots}`).toBe(opened);
  }

  // A roll is whole: one "roll" close of every lot, one new position in the same campaign.
  for (const p of all) {
    const rolls = (p.closes as Json[]).filter((c) => c.reason === "roll");
    const next = successors.get(p.id) ?? [];
    expect([rolls.length, next.length], `roll of ${p.id}`).toEqual(
      rolls.length === 0 ? [0, 0] : [1, 1],
    );
    if (rolls.length === 0) continue;
    expect(p.status).toBe("closed");
    expect(next[0].campaignId).toBe(p.campaignId);
    expect((p.closes as Json[]).at(-1)).toEqual(rolls[0]);
  }

  // Every acknowledged write is there as the client was told; a refused one is not.
  for (const write of writes.values()) {
    if (write.kind === "open") {
      const p = roots.get(write.body.note);
      if (write.outcome === "acked")
        expect(p?.id, `acknowledged ${write.body.note}`).toBe(write.response.id);
      if (write.outcome === "refused") expect(p).toBeUndefined();
      continue;
    }
    const c = closeByTag.get(write.tag);
    if (write.outcome === "refused") expect(c, `refused ${write.tag}`).toBeUndefined();
    if (write.outcome !== "acked") continue;
    expect(c, `acknowledged ${write.kind} ${write.tag}`).toBeDefined();
    expect([c.lots, c.exit]).toEqual([write.response.closed.lots, write.response.closed.exit]);
    if (write.kind === "roll") {
      const next = byId.get(write.response.position.id);
      expect(next?.rolledFromId).toBe(write.positionId);
    }
  }

  // The CSV holds the lists' closes, no more, no less.
  const lines = String(csvRes.body).trimEnd().split("\r\n");
  expect(lines[0]).toMatch(/^close_id,position_id,campaign_id,/);
  const fromCsv: CsvLine[] = lines.slice(1).map((line) => {
    const f = line.split(",");
    return {
      closeId: Number(f[0]),
      positionId: Number(f[1]),
      campaignId: Number(f[2]),
      lots: Number(f[6]),
      exit: Number(f[8]),
      reason: JSON.parse(f[12] as string) as string,
    };
  });
  const fromLists: CsvLine[] = closes.map((c) => ({
    closeId: c.id,
    positionId: c.positionId,
    campaignId: byId.get(c.positionId).campaignId,
    lots: c.lots,
    exit: c.exit,
    reason: c.reason,
  }));
  const order = (a: CsvLine, b: CsvLine) => a.closeId - b.closeId;
  expect(fromCsv.sort(order)).toEqual(fromLists.sort(order));

  const depthOf = (p: Json): number =>
    p.rolledFromId === null ? 0 : 1 + depthOf(byId.get(p.rolledFromId));
  return {
    open: open.map((p) => ({ id: p.id, lots: p.lots, depth: depthOf(p) })),
    stored: (w) => (w.kind === "open" ? roots.has(w.body.note) : closeByTag.has(w.tag)),
  };
}

async function stop(): Promise<void> {
  const server = main as MainProcess;
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
}

describe("paper positions across kill -9 of the production server", () => {
  it("keeps every acknowledged open, close and roll, whole, and nothing half-written", async () => {
    let trader = await start(true);
    expect(main?.child.spawnargs.join(" ")).toMatch(/scripts\/start\.mjs$/);
    // A first roll alone, so the bursts' rolls find "Gold → next" rather than each making one.
    const first = newWrite("open", {});
    settle(first, await send(trader, first));
    const roll = newWrite("roll", { positionId: first.response.id });
    settle(roll, await send(trader, roll));
    expect([first.outcome, roll.outcome]).toEqual(["acked", "acked"]);

    const cutPerKill: number[] = [];
    const cutAfterCommit: Write[] = [];
    // Where a kill lands is chance: on a busy machine 16 kills have all fallen outside the
    // commit-to-answer window. More kills, until one lands there (or the extra run out).
    const kills = function* () {
      yield* KILLS;
      for (let i = 0; i < 4 && cutAfterCommit.length === 0; i++)
        yield { acks: 5 + 3 * (i % 8), lagMs: (i * 3) % 11 };
    };
    for (const kill of kills()) {
      for (let i = 0; i < 4; i++) {
        const open = newWrite("open", {});
        settle(open, await send(trader, open));
        expect(open.outcome).toBe("acked");
      }
      const cut = await burstThenKill(trader, (await verify(trader)).open, kill);
      cutPerKill.push(cut.length);
      trader = await start();
      // As the crash left it, then after the clients' retries.
      const { stored } = await verify(trader);
      cutAfterCommit.push(...cut.filter(stored));
      await retryKeyed(trader);
    }
    await verify(trader);
    // Every kill cut writes in flight: the kills hit the writes themselves.
    expect(
      cutPerKill.every((n) => n > 0),
      `cut at each kill: ${cutPerKill}`,
    ).toBe(true);
    // A kill between a commit and its answer is chance (the retry of such a write is also
    // tested on its own below, "a roll retried with its Idempotency-Key"): say when none landed.
    if (cutAfterCommit.length === 0)
      console.warn("no kill landed between a write's commit and its answer this run");
    const outcomes = new Set([...writes.values()].map((w) => `${w.kind} ${w.outcome}`));
    for (const seen of ["open acked", "close acked", "roll acked", "close refused"])
      expect(outcomes, seen).toContain(seen);
    await stop();
    // A safety net, not a measure: at load 25–35 on two cores 16 kills took over 600 s.
  }, 1_200_000);
});

describe("a roll retried with its Idempotency-Key", () => {
  it("answers the roll that happened, not 409 for the position it closed", async () => {
    const { server, admin, trader } = await startWithTrader();
    try {
      const open = { spread: "GC", side: "BUY", lots: 3, entry: 1000 };
      const p = (await trader.post("/api/positions", open)).body;
      const roll = (body: unknown, client = trader) =>
        client.request("POST", `/api/positions/${p.id}/roll`, {
          body,
          headers: { "idempotency-key": "roll-1" },
        });
      const first = await roll({ exit: 1010, entry: 900 });
      expect(first.status).toBe(200);
      // Its answer lost (a crash after the commit, a dropped connection): the client asks again.
      const again = await roll({ exit: 1010, entry: 900 });
      expect(again.status).toBe(200);
      expect(again.body.closed).toEqual(first.body.closed);
      expect(again.body.position.id).toBe(first.body.position.id);
      const stored = await server.services.store.positions.list(2, "open");
      expect(stored.map((q) => q.id)).toEqual([first.body.position.id]);
      expect(await server.services.store.positions.closes(2, [p.id])).toHaveLength(1);
      // The key with another request, or on a position that is not yours, replays nothing.
      expect((await roll({ exit: 1011, entry: 900 })).status).toBe(422);
      const other = await addTrader(server, admin, "other");
      expect((await roll({ exit: 1010, entry: 900 }, other)).status).toBe(404);
      // Without a key a second roll of the closed position is refused, as before.
      const unkeyed = await trader.post(`/api/positions/${p.id}/roll`, { exit: 1010, entry: 900 });
      expect(unkeyed.status).toBe(409);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
