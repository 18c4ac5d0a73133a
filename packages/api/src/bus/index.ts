import type { Bus } from "./bus.ts";
import type { RedisBusOptions } from "./redis.ts";

export type { Bus, BusHandler, BusState } from "./bus.ts";
export { createInProcessBus } from "./in-process.ts";
export type { BusMessages, Topic } from "./messages.ts";
export { TOPICS } from "./messages.ts";
export type { RedisBusOptions };

/**
 * The Redis bus, with ioredis loaded only when a cluster asks for it: a single-process server
 * never evaluates it (BENCHMARKS.md §47).
 */
export async function connectRedisBus(options: RedisBusOptions): Promise<Bus> {
  const { connectRedisBus: connect } = await import("./redis.ts");
  return connect(options);
}
