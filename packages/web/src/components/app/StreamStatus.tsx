import { PRICE_POLL_MS } from "@spreadwatch/core";

interface StreamStatusProps {
  live: boolean;
  interrupted: boolean;
  unreachable: boolean;
  /**
   * The newest quote time (epoch ms) of the prices the screen shows, as `data-market-at`: what a
   * script or test waits on to know the page has drawn a given moment of the market.
   */
  marketAt?: number | null;
}

/** A quiet dot while live; a plain sentence when prices arrive by polling, or do not arrive. */
export function StreamStatus({ live, interrupted, unreachable, marketAt }: StreamStatusProps) {
  const state = live
    ? "live"
    : unreachable
      ? "offline"
      : interrupted
        ? "interrupted"
        : "connecting";
  const text = {
    live: "Live",
    offline: "Offline",
    interrupted: `Live stream interrupted — polling every ${PRICE_POLL_MS / 1000} s`,
    connecting: "Connecting…",
  }[state];
  return (
    <p
      className={`stream-status stream-status--${state}`}
      role="status"
      data-stream={state}
      data-market-at={marketAt ?? undefined}
    >
      <span className="stream-status__dot" aria-hidden="true" />
      {text}
    </p>
  );
}
