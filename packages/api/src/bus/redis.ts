import { Redis } from "ioredis";
import { redactUrl } from "../config/cluster.ts";
import { log, warnEvery } from "../log.ts";
import type { Bus, BusState } from "./bus.ts";
import { LocalDispatch } from "./local-dispatch.ts";
import { TOPICS, type Topic } from "./messages.ts";

export interface RedisBusOptions {
  /** redis:// or rediss:// */
  url: string;
  /** Put before each topic to name its channel; lets several deployments share one Redis. */
  prefix?: string;
  /** How long an outage reads `reconnecting` before it reads `down`. */
  downAfterMs?: number;
  /** The first connection must be made within this, or connectRedisBus rejects. */
  connectTimeoutMs?: number;
}

export const DEFAULT_PREFIX = "spreadwatch:";

/**
 * The cluster bus: messages are JSON on the channel `<prefix><topic>`, those published in one
 * turn of the event loop as one array (see flush). One connection
 * publishes and one subscribes (a subscribing connection can do nothing else). Both reconnect by
 * themselves, forever, with a backoff capped at 2 s; the subscriber subscribes again each time.
 */
export async function connectRedisBus(options: RedisBusOptions): Promise<Bus> {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const downAfterMs = options.downAfterMs ?? 10_000;
  const where = redactUrl(options.url);
  const connection = (name: string, offlineQueue: boolean) =>
    new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: offlineQueue,
      connectionName: `spreadwatch-${name}`,
      connectTimeout: options.connectTimeoutMs ?? 5_000,
      retryStrategy: (times) => Math.min(100 * times, 2_000),
      // Resubscribing is ours (below), so `connected` means "messages flow", not "socket open".
      autoResubscribe: false,
    });
  // The publisher has no offline queue: an event held while Redis is away could go out before
  // the subscribers have subscribed again and be lost anyway. It is dropped at once instead, and
  // subscribers that must not miss a change reload their state on `connected` (the alert engine).
  const publisher = connection("publish", false);
  const subscriber = connection("subscribe", true);
  const dispatch = new LocalDispatch();
  const channels = TOPICS.map((topic) => prefix + topic);
  const topicOf = new Map(TOPICS.map((topic) => [prefix + topic, topic]));

  let state: BusState = "reconnecting";
  let subscribed = false;
  let closed = false;
  let downTimer: NodeJS.Timeout | undefined;
  const stateListeners = new Set<(state: BusState) => void>();

  function setState(next: BusState): void {
    if (next === state) return;
    state = next;
    log.info({ bus: where, state }, `Redis bus ${state}`);
    for (const listener of stateListeners) listener(state);
  }

  function update(): void {
    if (closed) return;
    if (publisher.status === "ready" && subscribed) {
      clearTimeout(downTimer);
      downTimer = undefined;
      setState("connected");
    } else if (state === "connected") {
      setState("reconnecting");
      downTimer = setTimeout(() => setState("down"), downAfterMs);
      downTimer.unref();
    }
  }

  for (const [name, redis] of [
    ["publish", publisher],
    ["subscribe", subscriber],
  ] as const) {
    // Without a listener ioredis prints every failed reconnect; one line per 10 s is enough.
    redis.on("error", (error: Error) =>
      warnEvery(`bus.redis.${name}`, 10_000, { bus: where, err: error.message }, "Redis bus error"),
    );
    redis.on("close", update);
    redis.on("end", () => !closed && setState("down"));
  }
  publisher.on("ready", update);
  subscriber.on("close", () => {
    subscribed = false;
    update();
  });
  subscriber.on("ready", () => {
    subscriber.subscribe(...channels).then(
      () => {
        subscribed = true;
        update();
      },
      // The connection dropped meanwhile; the next `ready` subscribes again.
      (error: Error) =>
        warnEvery("bus.redis.subscribe", 10_000, { err: error.message }, "subscribe"),
    );
  });
  subscriber.on("message", (channel: string, text: string) => {
    const topic = topicOf.get(channel);
    if (!topic) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      warnEvery("bus.redis.json", 10_000, { channel }, "Redis bus message is not JSON, dropped");
      return;
    }
    // A batch (see publish), delivered in one go; a lone message from an older release too.
    for (const message of Array.isArray(parsed) ? parsed : [parsed])
      dispatch.deliver(topic, message);
  });

  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await new Promise<void>((resolve, reject) => {
      if (state === "connected") return resolve();
      const stop = onState((next) => {
        if (next !== "connected") return;
        stop();
        resolve();
      });
      subscriber.once("close", () => reject(new Error("the connection closed while subscribing")));
    });
  } catch (error) {
    closed = true;
    publisher.disconnect();
    subscriber.disconnect();
    throw new Error(`Redis at ${where} is unreachable: ${(error as Error).message}`, {
      cause: error,
    });
  }

  function onState(listener: (state: BusState) => void): () => void {
    stateListeners.add(listener);
    return () => {
      stateListeners.delete(listener);
    };
  }

  /** What was published in the current turn of the event loop, in order, not yet sent. */
  let pending: { topic: Topic; message: unknown }[] = [];

  function publish(topic: Topic, message: unknown): void {
    if (closed) return;
    // A quote is stale a second later: while Redis is away, drop quotes rather than queue a
    // backlog that would replay old prices (events are dropped too, see enableOfflineQueue).
    if (topic === "quote" && publisher.status !== "ready") {
      warnEvery(
        "bus.redis.drop",
        10_000,
        { bus: where },
        "Redis bus not connected, quotes dropped",
      );
      return;
    }
    pending.push({ topic, message });
    if (pending.length === 1) queueMicrotask(flush);
  }

  /**
   * Sends one turn's messages, each run of one topic as one JSON array. A feed hands over a
   * step's or a frame's quotes in one go; sent one by one they could reach a subscriber across
   * several socket reads, and its stream would send the first part at once and hold the rest
   * for its 25 ms window (measured: p95 29 ms on a non-leader against 4 ms in one process).
   * As one message they reach every hub together, as they reach the leader's.
   */
  function flush(): void {
    const batch = pending;
    pending = [];
    if (closed) return;
    for (let start = 0; start < batch.length; ) {
      const topic = (batch[start] as { topic: Topic }).topic;
      let end = start + 1;
      while (end < batch.length && batch[end]?.topic === topic) end++;
      const messages = batch.slice(start, end).map((entry) => entry.message);
      start = end;
      // Not awaited: commands on one connection go out, and arrive, in the order they were sent.
      publisher
        .publish(prefix + topic, JSON.stringify(messages))
        .catch((error: Error) =>
          warnEvery("bus.redis.publish", 10_000, { topic, err: error.message }, "publish failed"),
        );
    }
  }

  return {
    publish,
    subscribe: (topic, handler) => dispatch.subscribe(topic, handler),
    state: () => state,
    onState,
    async close() {
      if (closed) return;
      setState("down");
      closed = true;
      clearTimeout(downTimer);
      stateListeners.clear();
      dispatch.clear();
      // quit() lets queued publishes go out first; disconnect() is for a connection that is away.
      await Promise.all(
        [publisher, subscriber].map((redis) =>
          redis.status === "ready"
            ? redis.quit().catch(() => redis.disconnect())
            : redis.disconnect(),
        ),
      );
    },
  };
}
