import { useCallback, useEffect, useRef, useState } from "react";
import type { AlertNotification } from "./useNotifications.ts";

export type FiredNotification = Omit<AlertNotification, "id">;

/** What the leading tab tells the others. */
export type TabMessage =
  /** A browser alert fired: show the same toast. */
  | { kind: "fired"; notification: FiredNotification }
  /** Its trigger reached the server: the alert list and the History changed. */
  | { kind: "recorded" };

interface Followers {
  onFired: (notification: FiredNotification) => void;
  onRecorded: () => void;
}

/** A message from another tab, checked: an older build of the app may still be open there. */
function readMessage(data: unknown): TabMessage | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const message = data as { kind?: unknown; notification?: Record<string, unknown> };
  if (message.kind === "recorded") return { kind: "recorded" };
  const n = message.notification;
  if (
    message.kind !== "fired" ||
    typeof n !== "object" ||
    n === null ||
    typeof n.title !== "string" ||
    typeof n.message !== "string" ||
    typeof n.crossed !== "string" ||
    typeof n.at !== "number"
  )
    return undefined;
  return {
    kind: "fired",
    notification: { title: n.title, message: n.message, crossed: n.crossed, at: n.at },
  };
}

function webLocks(): LockManager | undefined {
  return typeof navigator === "undefined" ? undefined : navigator.locks;
}

/**
 * Browser alerts once per login, however many tabs show the dashboard (docs/user-guide.md "Alert
 * toasts"): the tab holding the user's Web Lock leads — it posts the trigger, plays the sound and
 * tells the other tabs over a BroadcastChannel, and they show the same toast. Closing the leading
 * tab releases the lock and a waiting tab takes over. Without Web Locks (an old browser, or a
 * page served over plain http from another host) every tab leads, as if it were alone.
 */
export function useAlertTabs(userId: number, followers: Followers) {
  const [leading, setLeading] = useState(false);
  const channel = useRef<BroadcastChannel | undefined>(undefined);
  const handlers = useRef(followers);
  handlers.current = followers;

  useEffect(() => {
    const locks = webLocks();
    if (!locks) {
      setLeading(true);
      return;
    }
    const waiting = new AbortController();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    locks
      .request(`spreadwatch-alerts-${userId}`, { signal: waiting.signal }, () => {
        setLeading(true);
        // Held until this dashboard goes away (the tab closes, or the user signs out).
        return held;
      })
      .catch(() => {
        // Aborted while still waiting: this tab unmounted as a follower.
      });
    return () => {
      waiting.abort();
      release();
      setLeading(false);
    };
  }, [userId]);

  useEffect(() => {
    // Without a leader every tab fires on its own; hearing the others would show toasts twice.
    if (typeof BroadcastChannel === "undefined" || !webLocks()) return;
    const opened = new BroadcastChannel(`spreadwatch-alerts-${userId}`);
    opened.onmessage = (event: MessageEvent) => {
      const message = readMessage(event.data);
      if (message?.kind === "fired") handlers.current.onFired(message.notification);
      else if (message?.kind === "recorded") handlers.current.onRecorded();
    };
    channel.current = opened;
    return () => {
      opened.close();
      channel.current = undefined;
    };
  }, [userId]);

  /** Tells the other tabs of this login (a tab never hears its own messages). */
  const announce = useCallback((message: TabMessage) => channel.current?.postMessage(message), []);
  return { leading, announce };
}
