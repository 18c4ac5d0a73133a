import { NOTIFICATION_LIMIT } from "@spreadwatch/core";
import { useCallback, useMemo, useState } from "react";

export interface AlertNotification {
  id: number;
  /** The commodity, e.g. "Gold Buy". */
  title: string;
  /** docs/spec.md §4's text: "Spread has reached 100.00 (current: 128.38)". */
  message: string;
  /** The toast's line after the title: "crossed above 100.00 ⬆ — now 128.38". */
  crossed: string;
  at: number;
}

export interface Notifications {
  items: AlertNotification[];
  add(notification: Omit<AlertNotification, "id">): void;
  dismiss(id: number): void;
  clear(): void;
}

let nextId = 1;

/** The alert notifications (toasts and their list): newest first, at most 10 (docs/spec.md §9). */
export function useNotifications(): Notifications {
  const [items, setItems] = useState<AlertNotification[]>([]);
  const add = useCallback((notification: Omit<AlertNotification, "id">) => {
    const item = { ...notification, id: nextId++ };
    setItems((current) => [item, ...current].slice(0, NOTIFICATION_LIMIT));
  }, []);
  const dismiss = useCallback(
    (id: number) => setItems((current) => current.filter((item) => item.id !== id)),
    [],
  );
  const clear = useCallback(() => setItems([]), []);
  return useMemo(() => ({ items, add, dismiss, clear }), [items, add, dismiss, clear]);
}
