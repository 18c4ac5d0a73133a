import { useTelegramStatus } from "../../hooks/alerts/useTelegramStatus.ts";
import { failureText } from "../../session/errors.ts";
import { ScreenLink } from "../app/ScreenLink.tsx";
import { Message } from "../ui/Message.tsx";
import { NOT_CONFIGURED } from "./TelegramSettings.tsx";

/** The dashboard's Telegram Notifications panel: where Telegram stands; set up in Profile. */
export function TelegramSummary() {
  const status = useTelegramStatus();
  if (status.isPending) return <p className="muted">Checking Telegram status...</p>;
  if (status.isError) {
    return (
      <Message tone="error">
        {failureText(status.error, {
          fallback: "Failed to check Telegram status. Please try again.",
        })}
      </Message>
    );
  }
  if (!status.data.configured) return <p className="muted">{NOT_CONFIGURED}</p>;
  if (status.data.connected) {
    return (
      <>
        <p className="telegram-state telegram-state--on" data-telegram="connected">
          Connected. Alerts with Telegram turned on are sent to your chat, even with this page
          closed.
        </p>
        <p>
          <ScreenLink href="/profile">Manage Telegram in Profile</ScreenLink>
        </p>
      </>
    );
  }
  return (
    <>
      <p className="telegram-state" data-telegram="disconnected">
        Not connected. Alerts with Telegram turned on are not sent until you connect.
      </p>
      <p>
        <ScreenLink href="/profile">Set up Telegram in Profile</ScreenLink>
      </p>
    </>
  );
}
