// What a server firing says on its channels (docs/user-guide.md "Webhooks" and "Positions
// (paper)"): the Telegram text and the signed webhook body of a spread alert's firing and of a
// position's target or stop. The alert engine and position alerts hand these to the store, which
// writes them into the outbox in the firing's transaction; the senders deliver them as stored.
import {
  ALERT_METRIC_DECIMALS,
  type AlertMetric,
  alertMetricName,
  formatIstTimestamp,
  formatNumber,
  IST_TIME_ZONE,
  isAlertMetric,
  isSpreadSymbol,
  levelCrossedText,
  type PositionLevelKind,
  spreadDecimals,
  spreadSymbolLabel,
  type ThresholdSide,
} from "@spreadwatch/core";

/** The most decimals a definition's value is written with. */
const MAX_DEFINITION_DECIMALS = 8;

/**
 * Decimals of a definition's spread in a message (a formula has no unit to take them from): 2,
 * as every spread, or as many as the alert's threshold was typed with (a ratio alert at 0.0125
 * reads "0.0126 crossed above 0.0125"); at most 8. Without a threshold in its units (a z-score
 * alert's spread), a value under 1 keeps four significant digits (0.01234, not 0.01).
 */
export function definitionDecimals(of: { threshold: number } | { value: number }): number {
  let decimals = 2;
  if ("threshold" in of) {
    decimals = /\.(\d+)$/.exec(String(of.threshold))?.[1]?.length ?? 0;
  } else if (Number.isFinite(of.value) && of.value !== 0 && Math.abs(of.value) < 1) {
    decimals = 3 - Math.floor(Math.log10(Math.abs(of.value)));
  }
  return Math.min(Math.max(decimals, 2), MAX_DEFINITION_DECIMALS);
}

/** "49.95", "2.00", "95.0": a metric's value as messages show it (core's decimals). */
export function formatMetricValue(
  metric: string,
  value: number,
  symbol: string,
  /** A definition's spread decimals (definitionDecimals); a built-in's are its symbol's. */
  spreadPlaces = spreadDecimals(symbol),
): string {
  const decimals = isAlertMetric(metric) ? ALERT_METRIC_DECIMALS[metric] : undefined;
  return formatNumber(value, decimals ?? spreadPlaces);
}

/**
 * The Telegram text of one firing: commodity, metric, value, direction, threshold and IST time.
 * A z-score or percentile alert also gives the spread it was computed from. A definition's
 * symbol (SP7_BUY) is named by `label` ("Gold/silver Buy") and written with decimals that suit
 * its values; a built-in's by core's label and decimals.
 */
export function alertMessage(firing: {
  commodityType: string;
  /** The symbol's name for people: "Gold/silver Buy". Built-ins: core's ("Gold Buy"). */
  label?: string | undefined;
  /** "spread" (the default), "zscore" or "percentile". */
  metric?: string;
  threshold: number;
  /** The metric's value that crossed. */
  value: number;
  /** The live spread; shown beside a z-score or percentile. */
  spread: number;
  side: ThresholdSide;
  at: number;
  count: number;
  limit: number;
}): string {
  const metric = firing.metric ?? "spread";
  const name = alertMetricName(metric);
  const symbol = firing.commodityType;
  const builtIn = isSpreadSymbol(symbol);
  const label = builtIn ? spreadSymbolLabel(symbol) : (firing.label ?? symbol);
  const direction = firing.side === "above" ? "crossed above ⬆️" : "crossed below ⬇️";
  const places = builtIn
    ? spreadDecimals(symbol)
    : definitionDecimals(
        metric === "spread" ? { threshold: firing.threshold } : { value: firing.spread },
      );
  const value = formatMetricValue(metric, firing.value, symbol, places);
  const threshold = formatMetricValue(metric, firing.threshold, symbol, places);
  const spread = metric === "spread" ? "" : ` (spread ${formatNumber(firing.spread, places)})`;
  const lines = [
    `🔔 ${label} ${name.toLowerCase()} alert`,
    `${name} ${value} ${direction} ${threshold}${spread}`,
    `Time: ${formatIstTimestamp(firing.at)}`,
    `Notification ${firing.count} of ${firing.limit}${firing.count >= firing.limit ? " — alert now disabled" : ""}`,
  ];
  return lines.join("\n");
}

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

/** "BUY 2 × GC: net ₹12,400 reached target ₹12,000" (a stop: "fell to stop"). */
export function positionMessage(
  position: { side: "BUY" | "SELL"; lots: number; spread: string },
  kind: PositionLevelKind,
  net: number,
  threshold: number,
): string {
  return `${position.side} ${position.lots} × ${position.spread}: ${levelCrossedText(kind, net, threshold)}`;
}

/** How many times an alert has fired on the server, and its limit, when its firing is written. */
export interface FiringCount {
  serverFiringCount: number;
  maxNotifications: number;
}

/**
 * A spread alert's firing on its channels. The store asks for the Telegram text and then the
 * webhook body (which carries the text) with the same counted alert inside the write
 * transaction, so the message is built once.
 */
export function spreadFiringPayload(firing: {
  alertId: number;
  symbol: string;
  /** "Gold/silver Buy" for a definition's symbol; undefined for a built-in (core names it). */
  label: string | undefined;
  /** The definition's name for the webhook's `name`; undefined for a symbol the server lost. */
  name: string | undefined;
  metric: AlertMetric;
  threshold: number;
  value: number;
  spread: number;
  side: ThresholdSide;
  at: number;
}): {
  text: (alert: FiringCount) => string;
  webhookBody: (alert: FiringCount, firingId: number) => string;
} {
  let made: { alert: FiringCount; text: string } | undefined;
  const text = (alert: FiringCount) => {
    if (made?.alert !== alert) {
      const message = alertMessage({
        commodityType: firing.symbol,
        label: firing.label,
        metric: firing.metric,
        threshold: firing.threshold,
        value: firing.value,
        spread: firing.spread,
        side: firing.side,
        at: firing.at,
        count: alert.serverFiringCount,
        limit: alert.maxNotifications,
      });
      made = { alert, text: message };
    }
    return made.text;
  };
  return {
    text,
    webhookBody: (alert, firingId) =>
      webhookBody({
        firingId,
        alertId: firing.alertId,
        symbol: firing.symbol,
        name: firing.name,
        metric: firing.metric,
        value: firing.value,
        threshold: firing.threshold,
        direction: firing.side,
        firedAt: firing.at,
        count: alert.serverFiringCount,
        limit: alert.maxNotifications,
        text: text(alert),
      }),
  };
}

/**
 * A position's target or stop on its channels: the sentence (the History's note), the Telegram
 * text (the sentence after the level's sign, as an alert's opens with its bell) and the webhook
 * body.
 */
export function positionFiringPayload(firing: {
  position: { id: number; spread: string; side: "BUY" | "SELL"; lots: number };
  /** The definition's name, or its symbol for a built-in. */
  name: string;
  kind: PositionLevelKind;
  /** The executable exit the position is marked at. */
  symbol: string;
  mark: number;
  net: number;
  threshold: number;
  at: number;
}): { sentence: string; text: string; webhookBody: (firingId: number) => string } {
  const { position, name, kind, net, threshold } = firing;
  const sentence = positionMessage({ ...position, spread: name }, kind, net, threshold);
  const text = `${kind === "target" ? "🎯" : "🛑"} ${sentence}`;
  return {
    sentence,
    text,
    webhookBody: (firingId) =>
      positionWebhookBody({
        firingId,
        positionId: position.id,
        spread: position.spread,
        name,
        side: position.side,
        lots: position.lots,
        kind,
        symbol: firing.symbol,
        mark: firing.mark,
        netInr: net,
        thresholdInr: threshold,
        firedAt: firing.at,
        text,
      }),
  };
}

/** A live-order campaign left a leg unhedged (docs/user-guide.md "Live orders"): event "execution.naked". */
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
