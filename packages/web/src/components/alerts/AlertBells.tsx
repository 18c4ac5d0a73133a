import type { MouseEvent } from "react";
import { type AlertView, alertTooltipLines } from "../../alerts/texts.ts";
import { formatThreshold } from "../../alerts/threshold.ts";
import { BellIcon, BellOffIcon, PlusIcon } from "./icons.tsx";
import { Tooltip } from "./Tooltip.tsx";

interface AlertBellsProps {
  alerts: AlertView[];
  onEdit: (alert: AlertView) => void;
  onAdd: () => void;
  /** Opens the row's details, where every alert is listed: for rows with more than `max`. */
  onMore: () => void;
  /** Buttons before the plus (default MAX_BELLS); more alerts than that fold into "+n". */
  max?: number;
}

/** Alert buttons a row shows before the plus, so its cell keeps to one line of known width. */
export const MAX_BELLS = 3;

/** Clicks on a row's alert buttons stay there: the row itself opens the chart or the details. */
const own = (action: () => void) => (event: MouseEvent) => {
  event.stopPropagation();
  action();
};

/**
 * A Spread-table row's alerts (docs/spec.md §2): a bell per alert, with a badge while it is enabled and
 * muted while not, and the plus button. A row with more alerts than `max` shows the first
 * `max - 1` bells and "+n" for the rest (or, with room for one button only, a bell with the
 * count); either opens the row's details, which list every alert.
 */
export function AlertBells({ alerts, onEdit, onAdd, onMore, max = MAX_BELLS }: AlertBellsProps) {
  const folded = alerts.length > max;
  const shown = folded ? alerts.slice(0, max - 1) : alerts;
  return (
    <div className="bells">
      {shown.map((alert) => (
        <AlertBell key={alert.id} alert={alert} onEdit={() => onEdit(alert)} />
      ))}
      {folded &&
        (shown.length > 0 ? (
          <MoreBells count={alerts.length - shown.length} onOpen={onMore} />
        ) : (
          <CountBell alerts={alerts} onOpen={onMore} />
        ))}
      <AddAlertButton onAdd={onAdd} />
    </div>
  );
}

/** "+n": the row's alerts past its bells; a click shows the row's details with all of them. */
function MoreBells({ count, onOpen }: { count: number; onOpen: () => void }) {
  return (
    <button
      type="button"
      className="bell bell--more"
      data-alert-more={count}
      aria-label={`${count} more ${count === 1 ? "alert" : "alerts"}: show all`}
      title={`${count} more ${count === 1 ? "alert" : "alerts"}`}
      onClick={own(onOpen)}
    >
      +{count}
    </button>
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
  return (
    <div className="bells">
      {alerts.length === 0 ? (
        <AddAlertButton onAdd={onAdd} />
      ) : (
        <CountBell alerts={alerts} onOpen={onOpen} />
      )}
    </div>
  );
}

/** One bell for all of a row's alerts, with their number; a click shows the row's details. */
function CountBell({ alerts, onOpen }: { alerts: AlertView[]; onOpen: () => void }) {
  const enabled = alerts.filter((alert) => alert.enabled).length;
  return (
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
