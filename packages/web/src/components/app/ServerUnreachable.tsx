import { PRICE_POLL_MS } from "@spreadwatch/core";

/**
 * Shown across the dashboard while neither the live stream nor polling reaches the server, so
 * the prices below are not mistaken for current ones.
 */
export function ServerUnreachable() {
  return (
    <div className="server-unreachable" role="alert" data-banner="unreachable">
      <p className="server-unreachable__title">Cannot reach the server</p>
      <p className="server-unreachable__text">
        The prices below are the last ones received and are not updating. Trying again every{" "}
        {PRICE_POLL_MS / 1000} s.
      </p>
    </div>
  );
}
