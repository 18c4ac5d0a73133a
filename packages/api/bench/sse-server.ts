// The server under test for sse.bench.ts (and fanout.bench.ts), in its own process so its RSS is its own. Runs the real
// startServer with the simulator feed (the product's default load: ~60 quotes/s in 50 ms steps),
// stamping quotes with a precise wall clock so the client can compute quote → arrival latency.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { SHIPPED_INSTRUMENTS } from "@spreadwatch/core";
import { loadConfig } from "../src/config/index.ts";
import { createSimulatorFeed } from "../src/feeds/simulator/simulator.ts";
import { dutiesFrom, startServer } from "../src/server.ts";
import { createPreciseClock } from "./clock.ts";

/** `since: true` starts a new event-loop delay window. */
export type ServerRequest = { type: "stats"; since?: boolean } | { type: "stop" };
export interface ServerStats {
  rss: number;
  subscribers: number;
  /** CPU time used since start, user + system. */
  cpuMs: number;
  /** 99th percentile event-loop delay since the last `since` request: how late the server runs. */
  loopDelayP99Ms: number;
  /** Instruments with a price in the hub, in use and quoting (the floor server has no hub). */
  priced?: number;
}
/** `instruments`: how many are in use (BENCH_INSTRUMENTS). */
export type ServerReply =
  | { type: "ready"; url: string; instruments?: number }
  | ({ type: "stats" } & ServerStats);

const send = (reply: ServerReply) => process.send?.(reply);

// The bench owns the data directory, so a second start finds the first one's history. Every
// client comes from 127.0.0.1: the benches measure fan-out, not the per-address stream limit.
const config = loadConfig({
  HOST: "127.0.0.1",
  PORT: "0",
  DATA_DIR: process.env.DATA_DIR,
  STREAM_LIMIT_PER_ADDRESS: "0",
  // BENCH_ADMIN_PASSWORD: a first admin the bench signs in as (spread-stream.bench.ts).
  ...(process.env.BENCH_ADMIN_PASSWORD && {
    ADMIN_USERNAME: "admin",
    ADMIN_PASSWORD: process.env.BENCH_ADMIN_PASSWORD,
  }),
});
// BENCH_CLOCK=plain: the product's own clock (whole milliseconds), for byte counts that match a
// real install; the precise clock's fractional timestamps are 4–5 bytes longer each.
const feed = createSimulatorFeed({
  duties: dutiesFrom(config),
  seed: 7,
  ...(process.env.BENCH_CLOCK !== "plain" && { now: createPreciseClock() }),
});
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
// The first-admin notice is not part of the figures.
const server = await startServer({ config, feed, log: () => undefined });
// BENCH_INSTRUMENTS=shipped: every shipped instrument in use (an admin adding each in turn),
// beside the fifteen built-in keys of the default.
if (process.env.BENCH_INSTRUMENTS === "shipped") {
  for (const spec of SHIPPED_INSTRUMENTS) await server.services.instruments.add(spec, null);
}

function pricedCount(): number {
  const { prices } = server.hub.snapshot();
  return [prices.cme, prices.mcx, prices.spot, prices.zerodha, prices.fx].reduce(
    (n, section) => n + Object.keys(section).length,
    0,
  );
}

process.on("message", async (request: ServerRequest) => {
  if (request.type === "stats") {
    const cpu = process.cpuUsage();
    send({
      type: "stats",
      rss: process.memoryUsage().rss,
      subscribers: server.hub.subscriberCount,
      cpuMs: (cpu.user + cpu.system) / 1000,
      loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
      priced: pricedCount(),
    });
    if (request.since) loopDelay.reset();
  } else if (request.type === "stop") {
    await server.close();
    process.exit(0);
  }
});
// Never outlive the bench: if it dies, the IPC channel closes.
process.on("disconnect", () => process.exit(0));
send({ type: "ready", url: server.url, instruments: server.services.instruments.size });
