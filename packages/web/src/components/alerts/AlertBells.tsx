import type { MouseEvent } from "react";
import { type AlertView, alertTooltipLines, formatThreshold } from "../../alerts/texts.ts";
import { BellIcon, BellOffIcon, PlusIcon } from "./icons.tsx";
import { Tooltip } from "./Tooltip.tsx";

interface AlertBellsProps {
  alerts: AlertView[];
  onEdit: (alert: AlertView) => void;
  onAdd: () => void;
}

/** Clicks on a row's alert buttons stay there: the row itself opens the chart or the details. */
const own = (action: () => void) => (event: MouseEvent) => {
  event.stopPropagation();
  action();
};

/**
 * A Spread-table row's alerts (spec §2): a bell per alert, with a badge while it is enabled and
 * muted while not, and the plus button.
 */
export function AlertBells({ alerts, onEdit, onAdd }: AlertBellsProps) {
  return (
    <div className="bells">
      {alerts.map((alert) => (
        <AlertBell key={alert.id} alert={alert} onEdit={() => onEdit(alert)} />
      ))}
      <AddAlertButton onAdd={onAdd} />
    </div>
  );
}

/** One alert's bell with its hover tooltip; a click edits the alert. */
export function AlertBell({ alert, onEdit }: { alert: AlertView; onEdit: () => void }) {
  return (
    <Tooltip content={<TooltipLines alert={alert} />}>
      {(tip) => (
        <button
          type="button"
          {...tip}
          className={`bell ${alert.enabled ? "bell--on" : "bell--off"}`}
          data-alert-id={alert.id}
          aria-label={`Edit alert at ${formatThreshold(alert.commodityType, alert.threshold)} (${alert.enabled ? "enabled" : "disabled"})`}
          onClick={own(onEdit)}
        >
          {alert.enabled ? <BellIcon /> : <BellOffIcon />}
          {alert.enabled && <span className="bell__badge" aria-hidden="true" />}
        </button>
      )}
    </Tooltip>
  );
}

export function AddAlertButton({ onAdd }: { onAdd: () => void }) {
  return (
    <button
      type="button"
      className="bell bell--add"
      aria-label="Add new alert"
      title="Add new alert"
      onClick={own(onAdd)}
    >
      <PlusIcon />
    </button>
  );
}

/**
 * A phone's Alerts cell: one bell with the number of alerts instead of a bell each, so rows stay
 * one line tall; a tap opens the row's details, where every bell is listed. Without alerts,
 * the plus button alone.
 */
export function AlertCountBell({
  alerts,
  onOpen,
  onAdd,
}: {
  alerts: AlertView[];
  onOpen: () => void;
  onAdd: () => void;
}) {
  if (alerts.length === 0) {
    return (
      <div className="bells">
        <AddAlertButton onAdd={onAdd} />
      </div>
    );
  }
  const enabled = alerts.filter((alert) => alert.enabled).length;
  return (
    <div className="bells">
      <button
        type="button"
        className={`bell bell--count ${enabled > 0 ? "bell--on" : "bell--off"}`}
        data-alert-count={alerts.length}
        aria-label={`${alerts.length} ${alerts.length === 1 ? "alert" : "alerts"}, ${enabled} enabled: show details`}
        onClick={own(onOpen)}
      >
        {enabled > 0 ? <BellIcon /> : <BellOffIcon />}
        <span className="bell__count" aria-hidden="true">
          {alerts.length}
        </span>
      </button>
    </div>
  );
}

export function TooltipLines({ alert }: { alert: AlertView }) {
  return (
    <ul className="tooltip__lines">
      {alertTooltipLines(alert).map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
