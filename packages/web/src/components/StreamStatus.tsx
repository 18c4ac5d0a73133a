import { PRICE_POLL_MS } from "@spreadwatch/core";

interface StreamStatusProps {
  live: boolean;
  interrupted: boolean;
}

/** A quiet dot while live; a plain sentence when prices arrive by polling instead. */
export function StreamStatus({ live, interrupted }: StreamStatusProps) {
  const state = live ? "live" : interrupted ? "interrupted" : "connecting";
  const text = {
    live: "Live",
    interrupted: `Live stream interrupted — polling every ${PRICE_POLL_MS / 1000} s`,
    connecting: "Connecting…",
  }[state];
  return (
    <p className={`stream-status stream-status--${state}`} role="status" data-stream={state}>
      <span className="stream-status__dot" aria-hidden="true" />
      {text}
    </p>
  );
}
