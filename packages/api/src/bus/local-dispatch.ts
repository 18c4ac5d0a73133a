import { warnEvery } from "../log.ts";
import type { BusHandler } from "./bus.ts";
import type { BusMessages, Topic } from "./messages.ts";

type AnyHandler = (message: unknown) => void;

/**
 * The subscribers of one instance. A message published from inside a handler is queued behind
 * the one being delivered, so every handler sees each topic in publishing order; a handler that
 * throws is logged and skipped, never stops the others.
 */
export class LocalDispatch {
  private readonly handlers = new Map<Topic, Set<AnyHandler>>();
  private readonly queue: Array<{ topic: Topic; message: unknown }> = [];
  private delivering = false;

  subscribe<T extends Topic>(topic: T, handler: BusHandler<T>): () => void {
    let set = this.handlers.get(topic);
    if (!set) {
      set = new Set();
      this.handlers.set(topic, set);
    }
    // A wrapper per subscription, so subscribing the same function twice unsubscribes cleanly.
    const entry: AnyHandler = (message) => handler(message as BusMessages[T]);
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  deliver(topic: Topic, message: unknown): void {
    this.queue.push({ topic, message });
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        for (const handler of this.handlers.get(next.topic) ?? []) {
          try {
            handler(next.message);
          } catch (error) {
            warnEvery(`bus.handler.${next.topic}`, 10_000, { err: error }, "bus subscriber failed");
          }
        }
      }
    } finally {
      this.delivering = false;
    }
  }

  clear(): void {
    this.handlers.clear();
    this.queue.length = 0;
  }
}
