import { alertMetricName, formatIstTimestamp } from "@spreadwatch/core";
import { type AlertView, alertSoundLabel, commodityLabel } from "../../alerts/texts.ts";
import { formatMetricThreshold } from "./metric.ts";

interface AlertListItemProps {
  alert: AlertView;
  /** Where Telegram stands for this user; an alert asking for it says when it cannot send. */
  telegram: { configured: boolean; connected: boolean } | undefined;
  busy: boolean;
  /** A z-score or percentile alert whose statistics the browser does not have yet. */
  waiting?: boolean;
  onToggle: () => void;
  onTest: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

function telegramState(alert: AlertView, telegram: AlertListItemProps["telegram"]): string {
  if (!alert.telegramNotify) return "Off";
  if (telegram && !telegram.configured) return "On (Telegram not configured)";
  if (telegram && !telegram.connected) return "On (Telegram not connected)";
  return "On";
}

/** One alert in the Spread Alerts panel, with every field spec §2 lists. */
export function AlertListItem({
  alert,
  telegram,
  busy,
  waiting = false,
  onToggle,
  onTest,
  onEdit,
  onDelete,
}: AlertListItemProps) {
  const title = commodityLabel(alert.commodityType);
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
        <div>
          <dt>Sound</dt>
          <dd data-field="sound">{alertSoundLabel(alert.soundId)}</dd>
        </div>
        <div>
          <dt>Telegram</dt>
          <dd data-field="telegram">{telegramState(alert, telegram)}</dd>
        </div>
        {alert.hysteresis != null && (
          <div>
            <dt>Re-arm after</dt>
            <dd data-field="hysteresis">
              {formatMetricThreshold(alert.metric, alert.commodityType, alert.hysteresis)}
            </dd>
          </div>
        )}
        {alert.webhookNotify && (
          <div>
            <dt>Webhook</dt>
            <dd data-field="webhook">On</dd>
          </div>
        )}
        <div>
          <dt>Telegram Limit</dt>
          <dd data-field="telegram-limit">
            {alert.telegramNotificationCount}/{alert.telegramMaxNotifications}
          </dd>
        </div>
        <div>
          <dt>Last Telegram</dt>
          <dd data-field="last-telegram">
            {alert.lastTelegramTriggered
              ? formatIstTimestamp(alert.lastTelegramTriggered)
              : "Never"}
          </dd>
        </div>
        <div>
          <dt>Last browser alert</dt>
          <dd data-field="last-browser">
            {alert.lastTriggered ? formatIstTimestamp(alert.lastTriggered) : "Never"}
          </dd>
        </div>
      </dl>
      <div className="alert-item__actions">
        <button type="button" className="button button--small" onClick={onToggle} disabled={busy}>
          {alert.enabled ? "Disable" : "Enable"}
        </button>
        <button type="button" className="button button--small" onClick={onTest}>
          Test
        </button>
        <button type="button" className="button button--small" onClick={onEdit}>
          Edit
        </button>
        <button
          type="button"
          className="button button--small button--danger"
          onClick={onDelete}
          disabled={busy}
        >
          Delete
        </button>
      </div>
    </li>
  );
}
