import { alertMetricName, formatIstTimestamp } from "@spreadwatch/core";
import { useEffect, useState } from "react";
import { useLocation } from "wouter";
import { type AlertView, alertSoundLabel, serverChannels } from "../../alerts/texts.ts";
import { useSymbolLabel } from "../../hooks/market/useSpreadDefinitions.ts";
import { Term } from "../ui/Term.tsx";
import { formatMetricThreshold } from "./metric.ts";

interface AlertListItemProps {
  alert: AlertView;
  /** Where Telegram stands for this user; an alert asking for it says when it cannot send. */
  telegram: { configured: boolean; connected: boolean } | undefined;
  /** Whether the user saved a webhook; undefined while unknown. */
  webhookSet?: boolean;
  busy: boolean;
  /** A z-score or percentile alert whose statistics the browser does not have yet. */
  waiting?: boolean;
  onToggle: () => void;
  /** Plays the alert's sound; resolves false when nothing could play. */
  onTest: () => Promise<boolean>;
  onEdit: () => void;
  onDelete: () => void;
}

function telegramState(alert: AlertView, telegram: AlertListItemProps["telegram"]): string {
  if (!alert.telegramNotify) return "Off";
  if (telegram && !telegram.configured) return "On (Telegram not configured)";
  if (telegram && !telegram.connected) return "On (Telegram not connected)";
  return "On";
}

/** How long the Test button's "Playing…" stays: about one alert sound. */
const TEST_FEEDBACK_MS = 1_500;

type TestState = "idle" | "playing" | "failed";

/** The Test button's state: "playing" (or "failed") for a moment after each press. */
function useTestFeedback(test: () => Promise<boolean>) {
  const [state, setState] = useState<{ value: TestState; press: number }>({
    value: "idle",
    press: 0,
  });
  useEffect(() => {
    if (state.value === "idle") return;
    const timer = setTimeout(() => setState((s) => ({ ...s, value: "idle" })), TEST_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const press = () => {
    const number = state.press + 1;
    setState({ value: "playing", press: number });
    void test().then((played) => {
      // Only this press's answer counts: a later press has its own.
      if (!played) setState((s) => (s.press === number ? { ...s, value: "failed" } : s));
    });
  };
  return { state: state.value, press };
}

/**
 * The labels of the server's count and last delivery, by the channels the alert has ticked
 * ("Webhook Limit", "Last webhook"); none when it has neither: a "Telegram Limit 0/1" on an
 * alert that sends nothing would read as if it did (docs/spec.md §2 lists them for Telegram).
 */
function serverLabels(alert: AlertView): { limit: string; last: string } | undefined {
  const channels = serverChannels(alert);
  if (!channels) return undefined;
  return { limit: `${channels} Limit`, last: `Last ${channels.replace("Webhook", "webhook")}` };
}

/** One alert in the Spread Alerts panel, with every field docs/spec.md §2 lists. */
export function AlertListItem({
  alert,
  telegram,
  webhookSet,
  busy,
  waiting = false,
  onToggle,
  onTest,
  onEdit,
  onDelete,
}: AlertListItemProps) {
  const title = useSymbolLabel()(alert.commodityType);
  const labels = serverLabels(alert);
  const test = useTestFeedback(onTest);
  const [, navigate] = useLocation();
  return (
    <li className="alert-item" data-alert-id={alert.id} data-enabled={alert.enabled}>
      <div className="alert-item__head">
        <p className="alert-item__title">
          {title}{" "}
          {alert.metric !== "spread" && (
            <>
              <span className="alert-item__metric" data-field="metric">
                {alertMetricName(alert.metric)}
              </span>{" "}
            </>
          )}
          <span className="muted">reaches</span>{" "}
          <span className="alert-item__threshold">
            {formatMetricThreshold(alert.metric, alert.commodityType, alert.threshold)}
          </span>
        </p>
        <span className={`state-badge ${alert.enabled ? "state-badge--on" : ""}`}>
          {alert.enabled ? "Enabled" : "Disabled"}
        </span>
      </div>
      {!alert.enabled && alert.disabledReason && (
        <p className="alert-item__reason" data-field="disabled-reason">
          {alert.disabledReason}
        </p>
      )}
      {alert.enabled && waiting && (
        <p className="alert-item__waiting muted" data-field="waiting">
          Waiting for statistics: this alert fires once the {alertMetricName(alert.metric)} is
          known.
        </p>
      )}
      <dl className="alert-item__facts">
        <Term label="Sound" field="sound">
          {alertSoundLabel(alert.soundId)}
        </Term>
        <Term label="Telegram" field="telegram">
          {telegramState(alert, telegram)}
        </Term>
        {alert.hysteresis != null && (
          <Term label="Re-arm after" field="hysteresis">
            {formatMetricThreshold(alert.metric, alert.commodityType, alert.hysteresis)}
          </Term>
        )}
        {alert.webhookNotify && (
          <Term label="Webhook" field="webhook">
            {webhookSet === false ? "On (no webhook set)" : "On"}
          </Term>
        )}
        {labels && (
          <>
            <Term label={labels.limit} field="telegram-limit">
              {alert.telegramNotificationCount}/{alert.telegramMaxNotifications}
            </Term>
            <Term label={labels.last} field="last-telegram">
              {alert.lastTelegramTriggered
                ? formatIstTimestamp(alert.lastTelegramTriggered)
                : "Never"}
            </Term>
          </>
        )}
        <Term label="Last browser alert" field="last-browser">
          {alert.lastTriggered ? formatIstTimestamp(alert.lastTriggered) : "Never"}
        </Term>
      </dl>
      <div className="alert-item__actions">
        <button type="button" className="button button--small" onClick={onToggle} disabled={busy}>
          {alert.enabled ? "Disable" : "Enable"}
        </button>
        <button
          type="button"
          className="button button--small"
          data-playing={test.state === "playing" || undefined}
          onClick={test.press}
        >
          Test
        </button>
        <button type="button" className="button button--small" onClick={onEdit}>
          Edit
        </button>
        <button
          type="button"
          className="button button--small"
          data-action="backtest"
          onClick={() =>
            navigate("/advanced-chart", {
              state: {
                commodity: alert.commodityType,
                backtest: { metric: alert.metric, threshold: alert.threshold },
              },
            })
          }
        >
          How would this alert have done?
        </button>
        <button
          type="button"
          className="button button--small button--danger"
          onClick={onDelete}
          disabled={busy}
        >
          Delete
        </button>
        <span className="alert-item__test muted" role="status" data-field="test-state">
          {test.state === "playing" && `▶ Playing ${alertSoundLabel(alert.soundId)}…`}
          {test.state === "failed" && "The sound could not play"}
        </span>
      </div>
    </li>
  );
}
