import { type FormEvent, useState } from "react";
import { useTelegramStatus } from "../../hooks/alerts/useTelegramStatus.ts";
import { useFlash } from "../../hooks/ui/useFlash.ts";
import { failureText } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";
import { Field } from "../ui/Field.tsx";
import { FlashMessages, Message } from "../ui/Message.tsx";
import { SubmitButton } from "../ui/SubmitButton.tsx";

export const NOT_CONFIGURED = "Telegram is not configured on this server";
const STATUS_FAILED = "Failed to check Telegram status. Please try again.";

/**
 * The profile's Telegram section (docs/spec.md §2, §4): disconnected → connecting (the setup form) →
 * connected, and back through Disconnect.
 */
export function TelegramSettings() {
  const status = useTelegramStatus();
  const utils = trpc.useUtils();
  const flash = useFlash();
  const [setupOpen, setSetupOpen] = useState(false);
  const [chatId, setChatId] = useState("");
  const refresh = () => utils.telegram.status.invalidate();
  const connect = trpc.telegram.connect.useMutation({ onSettled: refresh });
  const test = trpc.telegram.test.useMutation();
  const disconnect = trpc.telegram.disconnect.useMutation({ onSettled: refresh });

  const submitConnect = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = chatId.trim();
    if (!trimmed) {
      flash.showError("Please enter your Telegram Chat ID.");
      return;
    }
    flash.clear();
    connect.mutate(
      { chatId: trimmed },
      {
        onSuccess: () => {
          setSetupOpen(false);
          setChatId("");
          flash.showSuccess(
            "Telegram connected successfully! Check your Telegram for a confirmation message.",
          );
        },
        onError: (error) =>
          flash.showError(failureText(error, { fallback: "Failed to connect Telegram" })),
      },
    );
  };

  const sendTest = () => {
    flash.clear();
    test.mutate(undefined, {
      onSuccess: () => flash.showSuccess("Test message sent! Check your Telegram."),
      onError: (error) =>
        flash.showError(failureText(error, { fallback: "Failed to send test message" })),
    });
  };

  const sendDisconnect = () => {
    if (
      !window.confirm(
        "Are you sure you want to disconnect Telegram? You will no longer receive alert notifications.",
      )
    )
      return;
    flash.clear();
    disconnect.mutate(undefined, {
      onSuccess: () => flash.showSuccess("Telegram disconnected successfully"),
      onError: (error) =>
        flash.showError(failureText(error, { fallback: "Failed to disconnect Telegram" })),
    });
  };

  const messages = (
    <>
      <FlashMessages flash={flash} />
    </>
  );

  if (status.isPending) return <p className="muted">Checking Telegram status...</p>;
  if (status.isError) {
    return <Message tone="error">{failureText(status.error, { fallback: STATUS_FAILED })}</Message>;
  }
  const { configured, connected, botUsername } = status.data;
  if (!configured) return <p className="muted">{NOT_CONFIGURED}</p>;

  if (connected) {
    return (
      <>
        {messages}
        <p className="telegram-state telegram-state--on" data-telegram="connected">
          Connected{status.data.chatId ? ` to chat ${status.data.chatId}` : ""}. Alerts with
          Telegram turned on are sent there.
        </p>
        <div className="form__actions form__actions--wrap">
          <button type="button" className="button" onClick={sendTest} disabled={test.isPending}>
            Send Test Message
          </button>
          <button
            type="button"
            className="button button--danger"
            onClick={sendDisconnect}
            disabled={disconnect.isPending}
          >
            Disconnect Telegram
          </button>
        </div>
      </>
    );
  }

  const bot = botUsername ? `@${botUsername.replace(/^@/, "")}` : "our bot";
  return (
    <>
      {messages}
      <p className="telegram-state" data-telegram="disconnected">
        Not connected. Connect Telegram to receive your alerts there, even with this page closed.
      </p>
      {setupOpen ? (
        <form className="form" onSubmit={submitConnect} noValidate aria-label="Connect Telegram">
          <ol className="steps">
            <li>
              Open Telegram and start a chat with{" "}
              {botUsername ? (
                <a href={`https://t.me/${bot.slice(1)}`} target="_blank" rel="noreferrer">
                  {bot}
                </a>
              ) : (
                bot
              )}
              .
            </li>
            <li>
              Send <code>/start</code> to {bot}.
            </li>
            <li>
              Get your Chat ID, for example by sending any message to <code>@userinfobot</code>.
            </li>
            <li>Paste the Chat ID below and press Connect Telegram.</li>
          </ol>
          <Field
            label="Chat ID"
            name="chatId"
            inputMode="numeric"
            autoComplete="off"
            placeholder="123456789"
            value={chatId}
            onChange={setChatId}
          />
          <div className="form__actions">
            <SubmitButton busy={connect.isPending}>Connect Telegram</SubmitButton>
            <button
              type="button"
              className="button"
              onClick={() => {
                flash.clear();
                setSetupOpen(false);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="form__actions">
          <button
            type="button"
            className="button button--primary"
            onClick={() => setSetupOpen(true)}
          >
            Setup Telegram Notifications
          </button>
        </div>
      )}
    </>
  );
}
