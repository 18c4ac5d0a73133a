import type { MouseEvent } from "react";
import { type AlertView, alertTooltipLines, formatThreshold } from "../../alerts/texts.ts";
import { BellIcon, BellOffIcon, PlusIcon } from "./icons.tsx";
import { Tooltip } from "./Tooltip.tsx";

interface AlertBellsProps {
  alerts: AlertView[];
  onEdit: (alert: AlertView) => void;
  onAdd: () => void;
}

/**
 * A Spread-table row's alerts (spec §2): a bell per alert, with a badge while it is enabled and
 * muted while not, and the plus button. Clicks stay here: the row itself may open the chart.
 */
export function AlertBells({ alerts, onEdit, onAdd }: AlertBellsProps) {
  const click = (action: () => void) => (event: MouseEvent) => {
    event.stopPropagation();
    action();
  };
  return (
    <div className="bells">
      {alerts.map((alert) => (
        <Tooltip key={alert.id} content={<TooltipLines alert={alert} />}>
          {(tip) => (
            <button
              type="button"
              {...tip}
              className={`bell ${alert.enabled ? "bell--on" : "bell--off"}`}
              data-alert-id={alert.id}
              aria-label={`Edit alert at ${formatThreshold(alert.commodityType, alert.threshold)} (${alert.enabled ? "enabled" : "disabled"})`}
              onClick={click(() => onEdit(alert))}
            >
              {alert.enabled ? <BellIcon /> : <BellOffIcon />}
              {alert.enabled && <span className="bell__badge" aria-hidden="true" />}
            </button>
          )}
        </Tooltip>
      ))}
      <button
        type="button"
        className="bell bell--add"
        aria-label="Add new alert"
        title="Add new alert"
        onClick={click(onAdd)}
      >
        <PlusIcon />
      </button>
    </div>
  );
}

function TooltipLines({ alert }: { alert: AlertView }) {
  return (
    <ul className="tooltip__lines">
      {alertTooltipLines(alert).map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
