import type { SoundId } from "@spreadwatch/core";
import { useState } from "react";
import { playAlertSound } from "../../alerts/sound.ts";
import type { AlertView } from "../../alerts/texts.ts";
import { useAlertChanges, useAlertList } from "../../hooks/alerts/useAlerts.ts";
import { useTelegramStatus } from "../../hooks/alerts/useTelegramStatus.ts";
import { useAllSpreadStats } from "../../hooks/market/useSpreadStats.ts";
import { useFlash } from "../../hooks/ui/useFlash.ts";
import { failureText } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";
import { Message } from "../ui/Message.tsx";
import { Section } from "../ui/Section.tsx";
import { AlertForm } from "./AlertForm.tsx";
import { AlertListItem } from "./AlertListItem.tsx";
import { type AlertStatistics, waitingForStatistics } from "./metric.ts";

type FormState = { mode: "closed" } | { mode: "add" } | { mode: "edit"; alert: AlertView };

/** docs/spec.md §2 "Spread Alerts panel": the Add Alert form and the list; errors inline (docs/spec.md §8). */
export function SpreadAlertsPanel() {
  const list = useAlertList(true);
  const changes = useAlertChanges();
  const telegram = useTelegramStatus();
  const flash = useFlash();
  const [form, setForm] = useState<FormState>({ mode: "closed" });

  const toggleForm = () => {
    flash.clear();
    setForm(form.mode === "closed" ? { mode: "add" } : { mode: "closed" });
  };

  const toggle = (alert: AlertView) =>
    changes.update.mutate(
      { id: alert.id, enabled: !alert.enabled },
      {
        onSuccess: flash.clear,
        onError: (error) =>
          flash.showError(
            failureText(error, { fallback: "Failed to toggle alert. Please try again." }),
          ),
      },
    );

  const remove = (alert: AlertView) => {
    if (!window.confirm("Are you sure you want to delete this alert?")) return;
    changes.remove.mutate(
      { id: alert.id },
      {
        onSuccess: () => {
          flash.clear();
          if (form.mode === "edit" && form.alert.id === alert.id) setForm({ mode: "closed" });
        },
        onError: (error) =>
          flash.showError(failureText(error, { fallback: "Failed to delete alert" })),
      },
    );
  };

  const busyId =
    (changes.update.isPending && changes.update.variables?.id) ||
    (changes.remove.isPending && changes.remove.variables?.id) ||
    undefined;
  const alerts = list.data?.alerts;
  const stats = useAllSpreadStats(alerts?.some((a) => a.metric !== "spread") ?? false);
  // Only asked for when an alert posts to the webhook: its row says when none is set.
  const webhook = trpc.webhook.get.useQuery(undefined, {
    enabled: alerts?.some((a) => a.webhookNotify) ?? false,
  });
  const webhookSet = webhook.data ? webhook.data.url !== null : undefined;
  const waiting = (alert: AlertView) =>
    waitingForStatistics(
      alert.metric,
      stats?.[alert.commodityType as keyof typeof stats] as AlertStatistics | undefined,
    );
  return (
    <Section
      title="Spread Alerts"
      className="alerts-panel"
      actions={
        <button
          type="button"
          className={`button button--small ${form.mode === "closed" ? "button--primary" : ""}`}
          onClick={toggleForm}
        >
          {form.mode === "closed" ? "Add Alert" : "Cancel"}
        </button>
      }
    >
      {flash.error && <Message tone="error">{flash.error}</Message>}
      {form.mode !== "closed" && (
        <AlertForm
          key={form.mode === "edit" ? form.alert.id : "new"}
          alert={form.mode === "edit" ? form.alert : undefined}
          onDone={() => {
            flash.clear();
            setForm({ mode: "closed" });
          }}
          onError={flash.showError}
        />
      )}
      {list.isPending ? (
        <p className="muted">Loading alerts...</p>
      ) : list.isError && !alerts ? (
        <Message tone="error">
          {failureText(list.error, { fallback: "Failed to load alerts. Please try again." })}
        </Message>
      ) : alerts && alerts.length > 0 ? (
        <ul className="alert-list" aria-label="Alerts">
          {alerts.map((alert) => (
            <AlertListItem
              key={alert.id}
              alert={alert}
              telegram={telegram.data}
              webhookSet={webhookSet}
              busy={busyId === alert.id}
              waiting={waiting(alert)}
              onToggle={() => toggle(alert)}
              onTest={() => playAlertSound(alert.soundId as SoundId)}
              onEdit={() => {
                flash.clear();
                setForm({ mode: "edit", alert });
              }}
              onDelete={() => remove(alert)}
            />
          ))}
        </ul>
      ) : (
        <p className="muted">No alerts configured. Add one to get started.</p>
      )}
    </Section>
  );
}
