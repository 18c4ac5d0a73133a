import { IST_TIME_ZONE, type ThresholdSide } from "@spreadwatch/core";

/**
 * The JSON body POSTed to a user's webhook for one server firing (docs/user-guide.md, "Webhooks":
 * the contract).
 */
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

/**
 * The JSON body POSTed to a user's webhook when one of their positions reaches its target or its
 * stop (docs/user-guide.md "Positions (paper)"): signed and retried like an alert's, told apart by
 * `event`.
 */
export interface PositionWebhookPayload {
  event: "position.alert";
  firingId: number;
  positionId: number;
  /** The definition's symbol (GC, SP7), its name (the symbol for a built-in), the side and open lots. */
  spread: string;
  name: string;
  side: "BUY" | "SELL";
  lots: number;
  kind: "target" | "stop";
  /** The executable exit the position is marked at (GC_SELL for a BUY). */
  symbol: string;
  mark: number;
  netInr: number;
  thresholdInr: number;
  direction: ThresholdSide;
  firedAt: number;
  firedAtIst: string;
  text: string;
}

/** The body, serialised once (stored in the outbox and signed as stored, like webhookBody's). */
export function positionWebhookBody(
  firing: Omit<PositionWebhookPayload, "event" | "firedAtIst" | "direction">,
): string {
  const payload: PositionWebhookPayload = {
    event: "position.alert",
    firingId: firing.firingId,
    positionId: firing.positionId,
    spread: firing.spread,
    name: firing.name,
    side: firing.side,
    lots: firing.lots,
    kind: firing.kind,
    symbol: firing.symbol,
    mark: firing.mark,
    netInr: firing.netInr,
    thresholdInr: firing.thresholdInr,
    direction: firing.kind === "target" ? "above" : "below",
    firedAt: firing.firedAt,
    firedAtIst: formatIstIso(firing.firedAt),
    text: firing.text,
  };
  return JSON.stringify(payload);
}

/** A live-order campaign left a leg unhedged (docs/pending/orders.md): event "execution.naked". */
export interface NakedLegWebhookPayload {
  event: "execution.naked";
  firingId: number;
  executionId: string;
  spread: string;
  side: "BUY" | "SELL";
  lots: number;
  /** Broker quantity of the first leg left without its hedge. */
  nakedQuantity: number;
  firedAt: number;
  firedAtIst: string;
  text: string;
}

export function nakedLegWebhookBody(
  firing: Omit<NakedLegWebhookPayload, "event" | "firedAtIst">,
): string {
  const payload: NakedLegWebhookPayload = {
    event: "execution.naked",
    ...firing,
    firedAtIst: formatIstIso(firing.firedAt),
  };
  return JSON.stringify(payload);
}
