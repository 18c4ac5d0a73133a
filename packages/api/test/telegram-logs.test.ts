import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { crossingReplay } from "./crossing-replay.ts";
import { FakeTelegram } from "./fake-telegram.ts";
import { until } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import {
  listeningUrl,
  type MainProcess,
  manualFeed,
  runMain,
  startTestServer,
  type TestServer,
} from "./server.ts";
import { telegramEnv, traderWithAlert } from "./telegram-trader.ts";

let telegram: FakeTelegram;
let server: TestServer;
let main: MainProcess | undefined;
const dir = mkdtempSync(join(tmpdir(), "spreadwatch-telegram-logs-"));

beforeEach(async () => {
  telegram = await new FakeTelegram().start();
  server = await startTestServer({ feed: manualFeed(), env: telegramEnv(telegram) });
});
afterEach(async () => {
  main?.child.kill("SIGKILL");
  await main?.exited;
  await server.stop();
  await telegram.stop();
});

/** The server's log as it writes it when not on a terminal: one JSON object per line. */
function logLines(process: MainProcess): Array<Record<string, unknown>> {
  return process
    .stdout()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const unreachableLines = (process: MainProcess) =>
  logLines(process).filter((line) => line.msg === "Telegram unreachable");

it("Telegram down: one JSON warning line with the reason and no stack, however many sends fail", async () => {
  await traderWithAlert(server, { telegramMaxNotifications: 5 });
  await server.close();
  telegram.refuseConnections();
  main = runMain({
    ...telegramEnv(telegram),
    DATA_DIR: server.dataDir,
    FEED: "replay",
    REPLAY_FILE: crossingReplay(dir, 2),
    REPLAY_SPEED: "0",
  });
  const url = await listeningUrl(main);
  const running = main;
  // The outbox sender meets the outage first (its alert was queued at start)...
  await until(() => unreachableLines(running).length > 0, "the sender's warning", 20_000);
  // ...then a user meets it twice more, within the same minute.
  const trader = new HttpClient(url);
  await trader.post("/api/auth/login", { username: "trader", password: "trader-pass-1" });
  expect((await trader.post("/api/telegram/test")).status).toBe(502);
  expect((await trader.post("/api/telegram/test")).status).toBe(502);

  const lines = unreachableLines(running);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ level: 40, reason: "network error (ECONNREFUSED)" });
  expect(JSON.stringify(lines[0])).not.toContain("stack");
}, 60_000);
