import {
  ALERT_METRIC_LABELS,
  type AlertMetric,
  DEFAULT_NOTIFICATION_LIMIT,
  DEFAULT_SOUND_ID,
  formatNumber,
  isAlertMetric,
  isSpreadSymbol,
  MODAL_LIMIT_OPTIONS,
  MODAL_SOUND_IDS,
  type SoundId,
  spreadDecimals,
} from "@spreadwatch/core";
import { type FormEvent, useState } from "react";
import type { AlertView } from "../../alerts/texts.ts";
import { INVALID_THRESHOLD, parseThreshold } from "../../alerts/threshold.ts";
import { useAlertChanges } from "../../hooks/alerts/useAlerts.ts";
import { useSymbolLabel } from "../../hooks/market/useSpreadDefinitions.ts";
import { useSubmissionKey } from "../../hooks/ui/useSubmissionKey.ts";
import { failureText } from "../../session/errors.ts";
import { DangerButton, DialogActions } from "../ui/DialogActions.tsx";
import { Checkbox } from "../ui/Field.tsx";
import { ModalForm } from "../ui/ModalForm.tsx";
import { flashMessage } from "./flashMessage.ts";
import { MetricField } from "./MetricField.tsx";
import { metricRangeText, thresholdRangeError } from "./metric.ts";
import { LimitField, SoundField } from "./SoundField.tsx";
import { ThresholdField } from "./ThresholdField.tsx";

interface AlertModalProps {
  /** A built-in's GC_BUY or a definition's SP7_BUY. */
  symbol: string;
  /** The alert being edited; absent when creating. */
  alert?: AlertView;
  /** Every alert of the symbol, for Delete All. */
  symbolAlerts: AlertView[];
  /** The spread now, offered as the placeholder of a new threshold. */
  currentSpread?: number;
  /** A new alert's threshold to start from, e.g. the level picked on the chart. */
  initialThreshold?: number;
  onClose: () => void;
}

/** Dashboard alert errors and results are browser alert dialogs (docs/spec.md §8). */
function tell(message: string): void {
  // After the modal's closing render, so the dialog does not sit on top of a stale modal.
  setTimeout(() => window.alert(message), 0);
}

/** docs/spec.md §2 "Alert create/edit modal", opened from a Spread-table row's bell or plus. */
export function AlertModal({
  symbol,
  alert,
  symbolAlerts,
  currentSpread,
  initialThreshold,
  onClose,
}: AlertModalProps) {
  const changes = useAlertChanges();
  const label = useSymbolLabel()(symbol);
  const submission = useSubmissionKey();
  const [threshold, setThreshold] = useState(
    alert
      ? String(alert.threshold)
      : initialThreshold === undefined
        ? ""
        : initialThreshold.toFixed(spreadDecimals(symbol)),
  );
  const [soundId, setSoundId] = useState<SoundId>((alert?.soundId as SoundId) ?? DEFAULT_SOUND_ID);
  const [telegram, setTelegram] = useState(alert?.telegramNotify ?? false);
  const [webhook, setWebhook] = useState(alert?.webhookNotify ?? false);
  const [limit, setLimit] = useState(alert?.telegramMaxNotifications ?? DEFAULT_NOTIFICATION_LIMIT);
  const [enabled, setEnabled] = useState(alert?.enabled ?? true);
  const [deletingAll, setDeletingAll] = useState(false);
  const busy =
    changes.create.isPending || changes.update.isPending || changes.remove.isPending || deletingAll;

  const stored: AlertMetric = alert && isAlertMetric(alert.metric) ? alert.metric : "spread";
  const [metric, setMetric] = useState<AlertMetric>(stored);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = parseThreshold(threshold);
    if (value === undefined) {
      window.alert(INVALID_THRESHOLD);
      return;
    }
    const outOfRange = thresholdRangeError(metric, value);
    if (outOfRange) {
      window.alert(outOfRange);
      return;
    }
    const fields = {
      commodityType: symbol,
      threshold: value,
      soundId,
      telegramNotify: telegram,
      webhookNotify: webhook,
      direction: "reaches" as const,
      enabled,
      // docs/spec.md §5: the modal sends null for 1.
      maxNotifications: limit === 1 ? null : limit,
      // The spec's modal has no metric: sent only when it is not what the server assumes.
      ...(metric !== stored ? { metric } : {}),
    };
    const onError = (error: unknown) =>
      tell(
        failureText(error, {
          fallback: alert ? "Failed to update alert" : "Failed to create alert",
          network: "Failed to save alert. Please try again.",
        }),
      );
    if (alert) changes.update.mutate({ id: alert.id, ...fields }, { onSuccess: onClose, onError });
    else {
      // A double click lands before the button is disabled; the key makes it one alert.
      const idempotencyKey = submission.keyFor(fields);
      changes.create.mutate({ ...fields, idempotencyKey }, { onSuccess: onClose, onError });
    }
  };

  const deleteOne = () => {
    if (!alert || !window.confirm("Are you sure you want to delete this alert?")) return;
    changes.remove.mutate(
      { id: alert.id },
      {
        onSuccess: onClose,
        onError: (error) => tell(failureText(error, { fallback: "Failed to delete alert" })),
      },
    );
  };

  const deleteAll = async () => {
    if (!window.confirm(`Are you sure you want to delete ALL alerts for ${symbol}?`)) return;
    setDeletingAll(true);
    try {
      await changes.removeAll(symbolAlerts.map((each) => each.id));
      onClose();
      // docs/decisions.md: a message that clears itself, not a dialog to dismiss.
      flashMessage(`All alerts for ${symbol} have been deleted.`);
    } catch (error) {
      setDeletingAll(false);
      tell(failureText(error, { fallback: "Failed to delete all alerts. Please try again." }));
    }
  };

  const placeholder =
    currentSpread === undefined ? "e.g. 100" : formatNumber(currentSpread, spreadDecimals(symbol));
  return (
    <ModalForm
      title={
        <>
          {alert ? "Edit Alert" : "Create Alert"} for{" "}
          {/* A definition's SP7_BUY says little: its name goes first. */}
          {!isSpreadSymbol(symbol) && label !== symbol && `${label} `}
          <span className="modal__symbol">{symbol}</span>
        </>
      }
      onClose={onClose}
      onSubmit={submit}
    >
      {/* The same choice as the Alerts section's form (README "Spread alerts"). */}
      <MetricField value={metric} onChange={setMetric} />
      <ThresholdField
        label={`Alert me when ${ALERT_METRIC_LABELS[metric]} reaches`}
        value={threshold}
        onChange={setThreshold}
        placeholder={metric === "spread" ? placeholder : metricRangeText(metric)}
        autoFocus
      />
      <SoundField
        label="Alert Sound"
        options={MODAL_SOUND_IDS}
        value={soundId}
        onChange={setSoundId}
      />
      <Checkbox label="Send Telegram Notification" checked={telegram} onChange={setTelegram} />
      <Checkbox label="Send to Webhook" checked={webhook} onChange={setWebhook} />
      {/* One limit for the server's channels, counted per firing (docs/user-guide.md). */}
      {(telegram || webhook) && (
        <LimitField
          label="Notification Limit"
          options={MODAL_LIMIT_OPTIONS}
          value={limit}
          onChange={setLimit}
          format={(n) => `${n} ${n === 1 ? "notification" : "notifications"}`}
        />
      )}
      <Checkbox label="Enable Alert" checked={enabled} onChange={setEnabled} />
      <DialogActions
        submit={alert ? "Update Alert" : "Create Alert"}
        onCancel={onClose}
        busy={busy}
        // Deleting belongs to editing: a new alert's dialog offers no Delete (All).
        onDelete={alert && deleteOne}
        aside={
          alert &&
          symbolAlerts.length > 1 && (
            <DangerButton onClick={() => void deleteAll()} busy={busy}>
              Delete All
            </DangerButton>
          )
        }
      />
    </ModalForm>
  );
}
