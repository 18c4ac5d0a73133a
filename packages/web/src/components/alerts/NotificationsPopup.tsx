import { formatIstTime } from "@spreadwatch/core";
import { useLayoutEffect, useRef, useState } from "react";
import type { AlertNotification, Notifications } from "../../hooks/alerts/useNotifications.ts";

/** Toasts shown before the rest fold into "n more": enough to read, few enough to stay small. */
const VISIBLE = 3;

/**
 * docs/spec.md §2 "Alert Notifications popup" as toasts: the newest three, "n more" for the rest of the
 * ten, Clear All and a dismiss per item. It is a strip along the bottom of the screen and
 * publishes its height as --toast-space: the dashboard's scrolling box ends there, so no toast
 * covers a table, and the modals keep clear of it.
 */
export function NotificationsPopup({ notifications }: { notifications: Notifications }) {
  const { items, dismiss, clear } = notifications;
  const [expanded, setExpanded] = useState(false);
  const region = useToastSpace(items.length > 0);
  if (items.length === 0) return null;
  const shown = expanded ? items : items.slice(0, VISIBLE);
  const more = items.length - shown.length;
  return (
    <section
      ref={region}
      className="notifications"
      aria-label="Alert Notifications"
      aria-live="polite"
      data-expanded={expanded || undefined}
    >
      <header className="notifications__header">
        <h2 className="notifications__title">Alert Notifications</h2>
        {(more > 0 || expanded) && (
          <button
            type="button"
            className="button button--small"
            aria-expanded={expanded}
            onClick={() => setExpanded(!expanded)}
          >
            {expanded ? "Show fewer" : `${more} more`}
          </button>
        )}
        <button type="button" className="button button--small" onClick={clear}>
          Clear All
        </button>
      </header>
      <ul className="notifications__list">
        {shown.map((item) => (
          <Toast key={item.id} item={item} onDismiss={() => dismiss(item.id)} />
        ))}
      </ul>
    </section>
  );
}

function Toast({ item, onDismiss }: { item: AlertNotification; onDismiss: () => void }) {
  return (
    <li className="notification" data-notification>
      <div className="notification__body">
        <p className="notification__line">
          <span className="notification__title">{item.title}</span>{" "}
          <span className="notification__crossed">{item.crossed}</span>
        </p>
        <p className="notification__message">{item.message}</p>
        <p className="notification__time">{formatIstTime(item.at)}</p>
      </div>
      <button
        type="button"
        className="message__dismiss"
        aria-label="Dismiss notification"
        onClick={onDismiss}
      >
        ×
      </button>
    </li>
  );
}

/**
 * Keeps --toast-space on the root element at the height the toasts take from the bottom of the
 * viewport (0 without toasts), so the dashboard and a modal can keep to the space above them.
 */
function useToastSpace(present: boolean) {
  const region = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const root = document.documentElement.style;
    const element = region.current;
    if (!present || !element) {
      root.removeProperty("--toast-space");
      return;
    }
    const measure = () => {
      const space = Math.max(0, window.innerHeight - element.getBoundingClientRect().top);
      root.setProperty("--toast-space", `${Math.ceil(space)}px`);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
      root.removeProperty("--toast-space");
    };
  }, [present]);
  return region;
}
