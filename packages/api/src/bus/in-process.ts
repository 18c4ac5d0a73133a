import type { Bus, BusState } from "./bus.ts";
import { LocalDispatch } from "./local-dispatch.ts";

/** The embedded default: one process, delivery in the publisher's call stack, always connected. */
export function createInProcessBus(): Bus {
  const dispatch = new LocalDispatch();
  let state: BusState = "connected";
  const stateListeners = new Set<(state: BusState) => void>();
  return {
    publish(topic, message) {
      if (state === "connected") dispatch.deliver(topic, message);
    },
    subscribe: (topic, handler) => dispatch.subscribe(topic, handler),
    state: () => state,
    onState(listener) {
      stateListeners.add(listener);
      return () => {
        stateListeners.delete(listener);
      };
    },
    async close() {
      if (state === "down") return;
      state = "down";
      dispatch.clear();
      for (const listener of stateListeners) listener(state);
      stateListeners.clear();
    },
  };
}
