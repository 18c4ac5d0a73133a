import { alertMetricName, formatIstTimestamp } from "@spreadwatch/core";
import { type HistoryEntry, useAlertHistory } from "../../hooks/alerts/useAlertHistory.ts";
import { useSymbolLabel } from "../../hooks/market/useSpreadDefinitions.ts";
import { failureText } from "../../session/errors.ts";
import { Message } from "../ui/Message.tsx";
import { type Column, TableHead } from "../ui/TableHead.tsx";
import { formatMetricThreshold, formatMetricValue } from "./metric.ts";

const COLUMNS: readonly Column[] = [
  { label: "Time (IST)" },
  { label: "Symbol" },
  { label: "Metric" },
  { label: "Value" },
  { label: "Threshold" },
  { label: "Direction" },
  { label: "Channels" },
];

const CHANNEL_LABELS: Record<string, string> = {
  telegram: "Telegram",
  webhook: "Webhook",
  browser: "Browser",
};

/** "⬆ above" in words and an arrow, so it reads without colour. */
function directionText(direction: string): string {
  return direction === "above" ? "⬆ crossed above" : "⬇ crossed below";
}

function channelText(channel: HistoryEntry["channels"][number]): string {
  const name = CHANNEL_LABELS[channel.channel] ?? channel.channel;
  const tries = `${channel.attempts} attempt${channel.attempts === 1 ? "" : "s"}`;
  return `${name}: ${channel.state} (${tries})`;
}

function Channels({ entry }: { entry: HistoryEntry }) {
  if (entry.state === "held")
    return (
      <span className="history__held" data-field="held">
        {/* The engine words its notes "Held: <why>" (leg-watch.ts). */}
        {entry.note || "Held"}
      </span>
    );
  if (entry.channels.length === 0) return <span className="muted">No channel</span>;
  return (
    <ul className="history__channels">
      {entry.channels.map((channel, i) => (
        <li
          // Channels have no id of their own; their order is the outbox rows' and stays put.
          key={i}
          className={`history__channel history__channel--${channel.state}`}
          data-channel={channel.channel}
          data-state={channel.state}
        >
          {channelText(channel)}
        </li>
      ))}
    </ul>
  );
}

/** "23/11/2026," over "2:02:05 pm IST" on a desktop (a narrower column), one line on a phone. */
function IstTime({ at }: { at: number }) {
  const text = formatIstTimestamp(at);
  const comma = text.indexOf(", ");
  if (comma < 0) return <>{text}</>;
  return (
    <span>
      <span className="history__date">{text.slice(0, comma + 1)}</span>{" "}
      <span className="history__clock">{text.slice(comma + 2)}</span>
    </span>
  );
}

/** A position's target or stop: net ₹ against its level (the server's metric "net"). */
const POSITION_METRIC = "net";
const inr = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 2 });
const rupees = (value: number) => `${value < 0 ? "-" : ""}₹${inr.format(Math.abs(value))}`;

function HistoryRow({ entry }: { entry: HistoryEntry }) {
  const label = useSymbolLabel();
  const position = entry.metric === POSITION_METRIC;
  return (
    <tr data-firing-id={entry.id} data-state={entry.state} data-source={entry.source}>
      <td data-label="Time" data-col="time">
        <IstTime at={entry.firedAt} />
      </td>
      <td data-label="Symbol" data-col="symbol">
        {label(entry.symbol)}
        {entry.alertId === null && !position && (
          <span className="history__deleted muted"> (alert deleted)</span>
        )}
      </td>
      <td data-label="Metric" data-col="metric">
        {position ? "Position net ₹" : alertMetricName(entry.metric)}
      </td>
      <td data-label="Value" data-col="value" className="history__num">
        {position
          ? rupees(entry.value)
          : formatMetricValue(entry.metric, entry.symbol, entry.value)}
      </td>
      <td data-label="Threshold" data-col="threshold" className="history__num">
        {position
          ? rupees(entry.threshold)
          : formatMetricThreshold(entry.metric, entry.symbol, entry.threshold)}
      </td>
      <td data-label="Direction" data-col="direction">
        {directionText(entry.direction)}
      </td>
      <td data-label="Channels" data-col="channels">
        <Channels entry={entry} />
        {entry.state !== "held" && entry.note && (
          <span className="history__note muted">{entry.note}</span>
        )}
      </td>
    </tr>
  );
}

/**
 * The alerts section's History tab (docs/user-guide.md, "Spread alerts"): every firing and held
 * crossing, newest first, with each channel's delivery state; a table on a desktop, one card per
 * entry on a phone.
 */
export function AlertHistory() {
  const history = useAlertHistory();
  const { first, entries } = history;
  if (first.isPending) return <p className="muted">Loading history...</p>;
  if (first.isError && entries.length === 0)
    return (
      <Message tone="error">
        {failureText(first.error, { fallback: "Failed to load the alert history." })}
      </Message>
    );
  if (entries.length === 0)
    return <p className="muted">No alert has fired yet. Firings will be listed here.</p>;
  return (
    <div className="history">
      <div className="history__scroll">
        <table className="history__table" aria-label="Alert history">
          <TableHead columns={COLUMNS} />
          <tbody>
            {entries.map((entry) => (
              <HistoryRow key={entry.id} entry={entry} />
            ))}
          </tbody>
        </table>
      </div>
      {history.olderError && <Message tone="error">{history.olderError}</Message>}
      {history.hasOlder && (
        <div className="history__more">
          <button
            type="button"
            className="button button--small"
            onClick={() => void history.loadOlder()}
            disabled={history.loadingOlder}
          >
            {history.loadingOlder ? "Loading..." : "Load older"}
          </button>
        </div>
      )}
    </div>
  );
}
