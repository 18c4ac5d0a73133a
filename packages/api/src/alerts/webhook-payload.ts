import { IST_TIME_ZONE, type ThresholdSide } from "@spreadwatch/core";

/** The JSON body POSTed to a user's webhook for one server firing (docs/issues/12.md §3, the contract). */
export interface WebhookPayload {
  event: "alert.fired";
  firingId: number;
  alertId: number;
  symbol: string;
  /**
   * The spread's name as the dashboard shows it: a definition's own ("Gold/silver", its name at
   * the firing), a built-in's ("Gold"). Absent only for a symbol the server no longer knows.
   */
  name?: string;
  metric: string;
  value: number;
  threshold: number;
  direction: ThresholdSide;
  /** The quote time of the crossing, epoch ms. */
  firedAt: number;
  /** The same instant in IST: "2026-11-23 14:02:05 IST". */
  firedAtIst: string;
  /** Server firings of the alert so far, this one included, and its limit. */
  count: number;
  limit: number;
  /** The Telegram message of the firing. */
  text: string;
}

// sv-SE formats as "2026-11-23 14:02:05": ISO order, 24-hour clock.
let istFormat: Intl.DateTimeFormat | undefined;

/** "2026-11-23 14:02:05 IST". */
export function formatIstIso(epochMs: number): string {
  istFormat ??= new Intl.DateTimeFormat("sv-SE", {
    timeZone: IST_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  return `${istFormat.format(epochMs)} IST`;
}

/**
 * The body, serialised once: it is stored in the outbox and signed byte for byte as stored on
 * every retry, so it must never be rebuilt at send time.
 */
export function webhookBody(
  firing: Omit<WebhookPayload, "event" | "firedAtIst" | "name"> & { name: string | undefined },
): string {
  const payload: WebhookPayload = {
    event: "alert.fired",
    firingId: firing.firingId,
    alertId: firing.alertId,
    symbol: firing.symbol,
    ...(firing.name === undefined ? {} : { name: firing.name }),
    metric: firing.metric,
    value: firing.value,
    threshold: firing.threshold,
    direction: firing.direction,
    firedAt: firing.firedAt,
    firedAtIst: formatIstIso(firing.firedAt),
    count: firing.count,
    limit: firing.limit,
    text: firing.text,
  };
  return JSON.stringify(payload);
}
