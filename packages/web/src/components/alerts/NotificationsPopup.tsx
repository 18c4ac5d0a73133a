import { formatIstTime } from "@spreadwatch/core";
import type { Notifications } from "../../hooks/useNotifications.ts";

/** Spec §2 "Alert Notifications popup": bottom right, only while there is something to show. */
export function NotificationsPopup({ notifications }: { notifications: Notifications }) {
  const { items, dismiss, clear } = notifications;
  if (items.length === 0) return null;
  return (
    <section className="notifications" aria-label="Alert Notifications" aria-live="polite">
      <header className="notifications__header">
        <h2 className="notifications__title">Alert Notifications</h2>
        <button type="button" className="button button--small" onClick={clear}>
          Clear All
        </button>
      </header>
      <ul className="notifications__list">
        {items.map((item) => (
          <li key={item.id} className="notification" data-notification>
            <div className="notification__body">
              <p className="notification__title">{item.title}</p>
              <p className="notification__message">{item.message}</p>
              <p className="notification__time">{formatIstTime(item.at)}</p>
            </div>
            <button
              type="button"
              className="message__dismiss"
              aria-label="Dismiss notification"
              onClick={() => dismiss(item.id)}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
