import type { Store } from "../store/store.ts";

/**
 * Queues `n` Telegram messages for a new user "alice" through the one path that writes outbox
 * rows, alert firings (one alert each); returns the rows' ids, oldest first.
 */
export async function queueTelegramFirings(store: Store, n: number, now = 0): Promise<number[]> {
  const user = await store.users.create({
    username: "alice",
    passwordHash: "h",
    alertsEnabled: true,
  });
  await store.telegramLinks.save(user.id, "chat", 0);
  const settings = {
    commodityType: "GOLD_SPREAD",
    threshold: 1,
    soundId: "beep",
    enabled: true,
    telegramNotify: true,
    maxNotifications: 5,
  };
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const alert = await store.alerts.create(user.id, settings, now);
    const [fired] = await store.alerts.recordFirings([
      {
        alertId: alert?.id as number,
        symbol: "GOLD_SPREAD",
        metric: "spread",
        value: 2,
        threshold: 1,
        direction: "above",
        at: now,
        now,
        text: () => `message ${i}`,
        webhookBody: () => "{}",
      },
    ]);
    ids.push(fired?.outbox[0]?.id as number);
  }
  return ids;
}
