export type { Bus, BusHandler, BusState } from "./bus.ts";
export { createInProcessBus } from "./in-process.ts";
export type { BusMessages, Topic } from "./messages.ts";
export { TOPICS } from "./messages.ts";
export { connectRedisBus, type RedisBusOptions } from "./redis.ts";
