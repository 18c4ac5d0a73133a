// The server under test for sse.bench.ts, in its own process so its RSS is its own. Runs the real
// startServer with the simulator feed (the product's default load: ~60 quotes/s in 50 ms steps),
// stamping quotes with a precise wall clock so the client can compute quote → arrival latency.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createSimulatorFeed } from "../src/feeds/simulator.ts";
import { dutiesFrom, startServer } from "../src/server.ts";
import { createPreciseClock } from "./clock.ts";

export type ServerRequest = { type: "stats" } | { type: "stop" };
export type ServerReply =
  | { type: "ready"; url: string }
  | { type: "stats"; rss: number; subscribers: number };

const send = (reply: ServerReply) => process.send?.(reply);

const dataDir = mkdtempSync(join(tmpdir(), "spreadwatch-bench-"));
const config = loadConfig({ HOST: "127.0.0.1", PORT: "0", DATA_DIR: dataDir });
const feed = createSimulatorFeed({
  duties: dutiesFrom(config),
  seed: 7,
  now: createPreciseClock(),
});
const server = await startServer({ config, feed });

process.on("message", async (request: ServerRequest) => {
  if (request.type === "stats") {
    send({
      type: "stats",
      rss: process.memoryUsage().rss,
      subscribers: server.hub.subscriberCount,
    });
  } else if (request.type === "stop") {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
// Never outlive the bench: if it dies, the IPC channel closes.
process.on("disconnect", () => process.exit(0));
send({ type: "ready", url: server.url });
