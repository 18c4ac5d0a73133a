import { setTimeout as sleep } from "node:timers/promises";
import type { MarketHub, MarketSnapshot } from "./hub.ts";

/**
 * Yields the hub's snapshot now and after every change, at most once per `minIntervalMs`.
 * Leading edge: a change after a quiet spell goes out at once; changes inside the window are
 * folded into one message sent when the window ends, so coalescing never delays by more than it.
 */
export async function* snapshotStream(
  hub: MarketHub,
  signal: AbortSignal,
  minIntervalMs: number,
): AsyncGenerator<MarketSnapshot> {
  let pending = true;
  let wake: (() => void) | undefined;
  const unsubscribe = hub.subscribe(() => {
    pending = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener("abort", onAbort);
  let lastSent = Number.NEGATIVE_INFINITY;
  try {
    while (!signal.aborted) {
      if (!pending) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      const wait = lastSent + minIntervalMs - performance.now();
      if (wait > 0) {
        await sleep(wait, undefined, { signal }).catch(() => undefined);
        continue;
      }
      pending = false;
      lastSent = performance.now();
      yield hub.snapshot();
    }
  } finally {
    unsubscribe();
    signal.removeEventListener("abort", onAbort);
  }
}
