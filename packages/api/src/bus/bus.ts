import type { BusMessages, Topic } from "./messages.ts";

/** For GET /api/health: `reconnecting` for a short outage, `down` once it has lasted (or ended). */
export type BusState = "connected" | "reconnecting" | "down";

export type BusHandler<T extends Topic> = (message: BusMessages[T]) => void;

/**
 * Carries quotes and events to every subscriber of every instance, the publisher's own included:
 * an instance reacts to its own events the same way it reacts to another's. Delivery keeps the
 * publishing order per topic, at most once: a message published while the bus is not connected
 * may be lost, so a subscriber that must not miss a change reloads its state on `connected`.
 * Handlers must not change the message they get (other handlers get the same object).
 */
export interface Bus {
  /** Does not wait: quotes are the hot path. */
  publish<T extends Topic>(topic: T, message: BusMessages[T]): void;
  /** Returns the function that unsubscribes. */
  subscribe<T extends Topic>(topic: T, handler: BusHandler<T>): () => void;
  state(): BusState;
  /** Called on every change of state(); returns the function that stops the calls. */
  onState(listener: (state: BusState) => void): () => void;
  /** Stops delivery and closes connections. Safe to call twice. */
  close(): Promise<void>;
}
