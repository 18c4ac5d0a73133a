import type { AlertView } from "../../alerts/texts.ts";
import { useAlertWatcher } from "../../hooks/alerts/useAlertWatcher.ts";
import { useNotifications } from "../../hooks/alerts/useNotifications.ts";
import type { FeedHealthQuery } from "../../hooks/market/useFeedHealth.ts";
import type { MarketSnapshot } from "../../hooks/market/useMarketSnapshot.ts";
import { useNakedLegs } from "../../hooks/positions/useNakedLegs.ts";
import { useDashboardPositionAlerts } from "../../hooks/positions/usePositionAlerts.ts";
import type { SessionUser } from "../../session/cache.ts";
import { NotificationsPopup } from "./NotificationsPopup.tsx";

interface DashboardWatchProps {
  user: SessionUser;
  /** The user's alerts; absent without alerts_enabled. */
  alerts: AlertView[] | undefined;
  snapshot: MarketSnapshot | undefined;
  health: FeedHealthQuery;
}

/**
 * What the dashboard watches in the background and pops up: spread alerts crossing, positions
 * reaching a target or stop, a live-order campaign's unhedged leg. In the entry with the tables:
 * it must watch from the first snapshot (docs/decisions.md "What the first load carries").
 */
export function DashboardWatch({ user, alerts, snapshot, health }: DashboardWatchProps) {
  const notifications = useNotifications();
  useAlertWatcher({
    userId: user.id,
    alerts,
    calculations: snapshot?.calculations,
    notify: notifications.add,
  });
  // A position's target or stop pops up here too (docs/user-guide.md "Targets and stops on
  // positions").
  useDashboardPositionAlerts(snapshot, health, notifications.add);
  // A live-order campaign that left a leg unhedged pops up whatever the alert settings.
  useNakedLegs(notifications.add);
  // docs/spec.md §6: alerts_enabled gates the notifications (an unhedged leg shows regardless).
  if (!user.alerts_enabled && notifications.items.length === 0) return null;
  return <NotificationsPopup notifications={notifications} />;
}
