import { memo, useState } from "react";
import { MUTE_KEY, NOTIFY_HIDDEN_KEY, useStoredFlag } from "../../hooks/ui/useStoredFlag.ts";

/**
 * The dashboard's alert switches: sounds off (remembered in this browser), and system
 * notifications while the tab is hidden. The browser's permission is asked for only when the
 * trader switches the latter on, never on load.
 */
export const AlertSwitches = memo(function AlertSwitches() {
  const [muted, setMuted] = useStoredFlag(MUTE_KEY);
  return (
    <div className="alert-switches">
      <label className="switch">
        <input
          type="checkbox"
          checked={muted}
          onChange={(event) => setMuted(event.target.checked)}
        />
        <span>Mute sounds</span>
      </label>
      <NotifyWhenHidden />
    </div>
  );
});

function NotifyWhenHidden() {
  const [on, setOn] = useStoredFlag(NOTIFY_HIDDEN_KEY);
  const supported = typeof Notification !== "undefined";
  // Read once: the browser answers `Notification.permission` slowly, and this renders often.
  const [permission, setPermission] = useState(() =>
    supported ? Notification.permission : "denied",
  );
  const blocked = supported && permission === "denied";
  const toggle = async (wanted: boolean) => {
    if (!wanted || !supported) {
      setOn(false);
      return;
    }
    const answer =
      Notification.permission === "default"
        ? await Notification.requestPermission()
        : Notification.permission;
    setPermission(answer);
    setOn(answer === "granted");
  };
  return (
    <label
      className="switch"
      title={
        !supported
          ? "This browser has no notifications"
          : blocked
            ? "Notifications are blocked in this site's browser settings"
            : "A system notification when an alert fires while this tab is hidden"
      }
    >
      <input
        type="checkbox"
        checked={on && permission === "granted"}
        disabled={!supported || blocked}
        onChange={(event) => void toggle(event.target.checked)}
      />
      <span>Notify me when hidden</span>
    </label>
  );
}
