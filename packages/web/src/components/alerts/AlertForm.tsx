import {
  type AlertMetric,
  DEFAULT_NOTIFICATION_LIMIT,
  DEFAULT_SOUND_ID,
  isAlertMetric,
  MAX_NOTIFICATION_LIMIT,
  MIN_NOTIFICATION_LIMIT,
  SOUND_IDS,
  type SoundId,
  SPREAD_SYMBOLS,
} from "@spreadwatch/core";
import { type FormEvent, useMemo, useState } from "react";
import { type AlertView, serverChannels } from "../../alerts/texts.ts";
import { INVALID_THRESHOLD, parseThreshold } from "../../alerts/threshold.ts";
import { useAlertChanges } from "../../hooks/alerts/useAlerts.ts";
import {
  executableSymbols,
  useOwnSpreads,
  useSymbolLabel,
} from "../../hooks/market/useSpreadDefinitions.ts";
import { useSubmissionKey } from "../../hooks/ui/useSubmissionKey.ts";
import { failureText } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";
import { ScreenLink } from "../app/ScreenLink.tsx";
import { Checkbox, SelectField } from "../ui/Field.tsx";
import { SubmitButton } from "../ui/SubmitButton.tsx";
import { MetricField } from "./MetricField.tsx";
import { metricRangeText, thresholdRangeError } from "./metric.ts";
import { LimitField, SoundField } from "./SoundField.tsx";
import { ThresholdField } from "./ThresholdField.tsx";

const INVALID_HYSTERESIS =
  "Please enter a number of 0 or more for the re-arm distance, or leave it empty.";

const PANEL_LIMITS = Array.from(
  { length: MAX_NOTIFICATION_LIMIT - MIN_NOTIFICATION_LIMIT + 1 },
  (_, i) => MIN_NOTIFICATION_LIMIT + i,
);

interface AlertFormProps {
  /** The alert being edited; absent when adding one. */
  alert?: AlertView;
  onDone: () => void;
  onError: (message: string) => void;
}

/** The Spread Alerts panel's form (docs/spec.md §2): all ten commodities, 8 sounds, limit 1 to 5. */
export function AlertForm({ alert, onDone, onError }: AlertFormProps) {
  const changes = useAlertChanges();
  const submission = useSubmissionKey();
  const [commodity, setCommodity] = useState<string>(alert?.commodityType ?? "GC_BUY");
  // The ten built-in spreads, then each of the user's definitions' Buy and Sell.
  const ownSpreads = useOwnSpreads();
  const label = useSymbolLabel();
  const commodities = useMemo(() => {
    const all = [...SPREAD_SYMBOLS, ...executableSymbols(ownSpreads)];
    return all.includes(commodity) ? all : [...all, commodity];
  }, [ownSpreads, commodity]);
  const [telegram, setTelegram] = useState(alert?.telegramNotify ?? false);
  const [threshold, setThreshold] = useState(alert ? String(alert.threshold) : "");
  const [soundId, setSoundId] = useState<SoundId>((alert?.soundId as SoundId) ?? DEFAULT_SOUND_ID);
  const [enabled, setEnabled] = useState(alert?.enabled ?? true);
  const [limit, setLimit] = useState(alert?.telegramMaxNotifications ?? DEFAULT_NOTIFICATION_LIMIT);
  const [metric, setMetric] = useState<AlertMetric>(
    alert && isAlertMetric(alert.metric) ? alert.metric : "spread",
  );
  const [hysteresis, setHysteresis] = useState(
    alert?.hysteresis == null ? "" : String(alert.hysteresis),
  );
  const [webhook, setWebhook] = useState(alert?.webhookNotify ?? false);
  const pending = changes.create.isPending || changes.update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = parseThreshold(threshold);
    if (value === undefined) {
      onError(INVALID_THRESHOLD);
      return;
    }
    const outOfRange = thresholdRangeError(metric, value);
    if (outOfRange) {
      onError(outOfRange);
      return;
    }
    const rearm = hysteresis.trim() === "" ? null : parseThreshold(hysteresis);
    if (rearm === undefined || (rearm !== null && rearm < 0)) {
      onError(INVALID_HYSTERESIS);
      return;
    }
    const fields = {
      commodityType: commodity,
      threshold: value,
      soundId,
      telegramNotify: telegram,
      direction: "reaches" as const,
      enabled,
      telegramMaxNotifications: limit,
      metric,
      hysteresis: rearm,
      webhookNotify: webhook,
    };
    const failed = (error: unknown) =>
      onError(
        failureText(error, {
          fallback: alert ? "Failed to update alert" : "Failed to create alert",
          network: "Failed to save alert. Please try again.",
        }),
      );
    if (alert)
      changes.update.mutate({ id: alert.id, ...fields }, { onSuccess: onDone, onError: failed });
    else {
      // A double click lands before the button is disabled; the key makes it one alert.
      const idempotencyKey = submission.keyFor(fields);
      const onSuccess = () => {
        submission.done();
        onDone();
      };
      changes.create.mutate({ ...fields, idempotencyKey }, { onSuccess, onError: failed });
    }
  };

  return (
    <form
      className="alert-form"
      onSubmit={submit}
      noValidate
      aria-label={alert ? "Edit Alert" : "Add Alert"}
    >
      <SelectField
        label="Commodity"
        options={commodities}
        value={commodity}
        onChange={setCommodity}
        format={label}
      />
      <MetricField value={metric} onChange={setMetric} />
      <ThresholdField
        label="Threshold"
        value={threshold}
        onChange={setThreshold}
        placeholder={metricRangeText(metric)}
      />
      <ThresholdField
        label="Re-arm after moving back (optional)"
        value={hysteresis}
        onChange={(text) => setHysteresis(text.replace("-", ""))}
        placeholder="e.g. 0.5"
      />
      <SoundField label="Sound" options={SOUND_IDS} value={soundId} onChange={setSoundId} />
      <div className="alert-form__checks">
        <Checkbox label="Send Telegram Notification" checked={telegram} onChange={setTelegram} />
        <Checkbox label="Enable Alert" checked={enabled} onChange={setEnabled} />
        <Checkbox label="Webhook" checked={webhook} onChange={setWebhook} />
      </div>
      {webhook && <WebhookHint />}
      {/* One limit for the server's channels, counted per firing (docs/user-guide.md). */}
      {(telegram || webhook) && (
        <LimitField
          label={`${serverChannels({ telegramNotify: telegram, webhookNotify: webhook })} Notification Limit`}
          options={PANEL_LIMITS}
          value={limit}
          onChange={setLimit}
        />
      )}
      <div className="form__actions">
        <SubmitButton busy={pending}>{alert ? "Update Alert" : "Create Alert"}</SubmitButton>
      </div>
    </form>
  );
}

/** Where a ticked Webhook posts to: the saved webhook's host, or where to set one. */
function WebhookHint() {
  const saved = trpc.webhook.get.useQuery();
  if (!saved.data) return null;
  const url = saved.data.url;
  return (
    <p className="field__hint alert-form__wide" data-field="webhook-hint">
      {url ? (
        <>
          Firings are POSTed to {hostOf(url)} (change it on the{" "}
          <ScreenLink href="/profile">Profile</ScreenLink> page).
        </>
      ) : (
        <>
          Set the webhook URL on the <ScreenLink href="/profile">Profile</ScreenLink> page.
        </>
      )}
    </p>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
