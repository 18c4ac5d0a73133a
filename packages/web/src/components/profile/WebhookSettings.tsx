import {
  WEBHOOK_SECRET_LENGTH_TEXT,
  WEBHOOK_SECRET_MAX,
  WEBHOOK_SECRET_MIN,
  WEBHOOK_URL_MAX_LENGTH,
} from "@spreadwatch/core";
import { type FormEvent, useEffect, useState } from "react";
import { useFlash } from "../../hooks/ui/useFlash.ts";
import { failureText } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";
import { Field } from "../ui/Field.tsx";
import { FlashMessages, Message } from "../ui/Message.tsx";
import { SubmitButton } from "../ui/SubmitButton.tsx";

/** 32 random bytes as hex: 64 characters, well inside the server's 16–256. */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function protocolOf(text: string): string | undefined {
  try {
    return new URL(text).protocol;
  } catch {
    return undefined;
  }
}

/**
 * Every problem the server would also report that the form can be sure of, together, so an
 * obvious slip needs no round trip. Whether an http:// URL may be used is the server's setting
 * (private deployments only), so such a form goes to the server, which names every problem.
 */
function checkWebhook(url: string, secret: string): string | undefined {
  const text = url.trim();
  const protocol = protocolOf(text);
  if (protocol === "http:") return undefined;
  const problems: string[] = [];
  if (!text) problems.push("Please enter the webhook URL.");
  else if (!protocol)
    problems.push(
      "The webhook URL is not a valid URL (it should look like https://example.com/hook).",
    );
  else if (protocol !== "https:") problems.push("The webhook URL must start with https://.");
  if (!secret) problems.push("Please enter a secret (or press Generate).");
  else if (secret.length < WEBHOOK_SECRET_MIN || secret.length > WEBHOOK_SECRET_MAX)
    problems.push(WEBHOOK_SECRET_LENGTH_TEXT);
  return problems.length > 0 ? problems.join(" ") : undefined;
}

/** What the Send test answer says, in one line. */
function testResultText(result: { ok: boolean; status?: number; error?: string }): string {
  if (result.ok) return `Test delivered: your webhook answered HTTP ${result.status}.`;
  return `Test not delivered: ${result.error ?? "no answer"}`;
}

/**
 * The webhook settings (docs/user-guide.md, "Webhooks"): where the server POSTs each firing of an
 * alert with Webhook turned on, and the secret its X-Spreadwatch-Signature is made with.
 */
export function WebhookSettings() {
  const utils = trpc.useUtils();
  const current = trpc.webhook.get.useQuery();
  const flash = useFlash();
  const [url, setUrl] = useState("");
  const [secret, setSecret] = useState("");
  const refresh = () => utils.webhook.get.invalidate();
  const save = trpc.webhook.save.useMutation({ onSettled: refresh });
  const remove = trpc.webhook.remove.useMutation({ onSettled: refresh });
  const test = trpc.webhook.test.useMutation();
  const saved = current.data?.url ? current.data : undefined;

  // The stored webhook fills the form once it has loaded (and again after a save or removal).
  useEffect(() => {
    if (!current.data) return;
    setUrl(current.data.url ?? "");
    setSecret(current.data.secret ?? "");
  }, [current.data]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkWebhook(url, secret);
    if (problem) {
      flash.showError(problem);
      return;
    }
    flash.clear();
    save.mutate(
      { url: url.trim(), secret },
      {
        onSuccess: () => flash.showSuccess("Webhook saved."),
        onError: (error) =>
          flash.showError(failureText(error, { fallback: "Failed to save the webhook" })),
      },
    );
  };

  const sendTest = () => {
    flash.clear();
    test.mutate(undefined, {
      onSuccess: (result) =>
        result.ok
          ? flash.showSuccess(testResultText(result))
          : flash.showError(testResultText(result)),
      onError: (error) =>
        flash.showError(failureText(error, { fallback: "Failed to send the test" })),
    });
  };

  const sendRemove = () => {
    if (!window.confirm("Remove the webhook? Alerts will no longer be POSTed to it.")) return;
    flash.clear();
    remove.mutate(undefined, {
      onSuccess: () => flash.showSuccess("Webhook removed."),
      onError: (error) =>
        flash.showError(failureText(error, { fallback: "Failed to remove the webhook" })),
    });
  };

  if (current.isPending) return <p className="muted">Loading webhook settings...</p>;
  if (current.isError) {
    return (
      <Message tone="error">
        {failureText(current.error, { fallback: "Failed to load the webhook settings." })}
      </Message>
    );
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Webhook">
      <FlashMessages flash={flash} />
      <p
        className={saved ? "telegram-state telegram-state--on" : "telegram-state"}
        data-webhook={saved ? "set" : "unset"}
      >
        {saved
          ? "Set. Alerts with Webhook turned on are POSTed there as JSON, signed with the secret."
          : "Not set. Add an https:// URL to receive your alerts as signed JSON POSTs."}
      </p>
      <Field
        label="Webhook URL"
        name="webhookUrl"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://example.com/spreadwatch"
        maxLength={WEBHOOK_URL_MAX_LENGTH}
        value={url}
        onChange={setUrl}
      />
      <Field
        label="Secret"
        name="webhookSecret"
        autoComplete="off"
        spellCheck={false}
        placeholder={`${WEBHOOK_SECRET_MIN}–${WEBHOOK_SECRET_MAX} characters`}
        maxLength={WEBHOOK_SECRET_MAX}
        value={secret}
        onChange={setSecret}
      />
      <div className="form__actions">
        <button
          type="button"
          className="button button--quiet"
          onClick={() => setSecret(generateSecret())}
        >
          Generate secret
        </button>
      </div>
      <p className="muted">
        Each POST carries <code>X-Spreadwatch-Signature: sha256=…</code>, the HMAC-SHA256 of the
        body with this secret, and an <code>Idempotency-Key</code> that stays the same on retries.
      </p>
      <div className="form__actions form__actions--wrap">
        <SubmitButton busy={save.isPending} busyLabel="Saving...">
          Save
        </SubmitButton>
        <button
          type="button"
          className="button"
          onClick={sendTest}
          disabled={!saved || test.isPending}
        >
          {test.isPending ? "Sending..." : "Send test"}
        </button>
        <button
          type="button"
          className="button button--danger"
          onClick={sendRemove}
          disabled={!saved || remove.isPending}
        >
          Remove
        </button>
      </div>
    </form>
  );
}
