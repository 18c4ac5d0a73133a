import type { Quote } from "@spreadwatch/core";
import type { Feed } from "../feed.ts";

/** Quotes handed over per turn of the event loop at speed 0, so HTTP stays responsive. */
const BATCH = 5_000;

export interface ReplayOptions {
  quotes: readonly Quote[];
  /** 1 = real time, 10 = ten times faster, 0 = as fast as possible, then hold the last prices. */
  speed: number;
  /** Without a quote for this long the replay is stale (after the file ends, at speed 0). */
  silenceMs?: number;
  now?: () => number;
}

/**
 * Plays recorded quotes with their own timestamps. At speed 0, `start` resolves once every quote
 * is in, so the server opens with the replay's final prices.
 */
export function createReplayFeed({
  quotes,
  speed,
  silenceMs,
  now = Date.now,
}: ReplayOptions): Feed {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function playAll(onQuote: (quote: Quote) => void) {
    for (let i = 0; i < quotes.length && !stopped; i += BATCH) {
      for (const quote of quotes.slice(i, i + BATCH)) onQuote(quote);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  function playTimed(onQuote: (quote: Quote) => void) {
    const startWall = now();
    const firstTs = quotes[0]?.ts ?? 0;
    let next = 0;
    const dueAt = (quote: Quote) => startWall + (quote.ts - firstTs) / speed;
    const pump = () => {
      const wall = now();
      while (next < quotes.length && dueAt(quotes[next] as Quote) <= wall)
        onQuote(quotes[next++] as Quote);
      if (next < quotes.length && !stopped) {
        timer = setTimeout(pump, Math.max(0, dueAt(quotes[next] as Quote) - now()));
      }
    };
    pump();
  }

  return {
    name: "replay",
    ...(silenceMs !== undefined && { staleAfterMs: silenceMs }),
    async start(onQuote) {
      if (speed === 0) await playAll(onQuote);
      else playTimed(onQuote);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
