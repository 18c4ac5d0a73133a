import { describe, expect, it } from "vitest";
import {
  type AlertView,
  alertSoundLabel,
  alertTooltipLines,
  crossedMessage,
  reachedMessage,
  serverChannels,
} from "./texts.ts";
import { formatThreshold } from "./threshold.ts";

function alert(patch: Partial<AlertView>): AlertView {
  return {
    id: 1,
    commodityType: "GC_BUY",
    threshold: 100,
    direction: "auto",
    soundId: "chime",
    enabled: true,
    telegramNotify: false,
    telegramMaxNotifications: 1,
    telegramNotificationCount: 0,
    maxNotifications: null,
    notificationCount: 0,
    lastTriggered: null,
    lastTelegramTriggered: null,
    metric: "spread",
    hysteresis: null,
    webhookNotify: false,
    disabledReason: null,
    ...patch,
  };
}

describe("formatThreshold", () => {
  it("gives NG, CL and HG 4 decimals and the other built-ins 2 (docs/spec.md §9)", () => {
    expect(formatThreshold("NG_BUY", 0.5)).toBe("0.5000");
    expect(formatThreshold("HG_SELL", -1.25)).toBe("-1.2500");
    expect(formatThreshold("GC_BUY", 100)).toBe("100.00");
  });

  it("gives a definition's threshold the decimals of its size: a ratio 4, rupees 2", () => {
    expect(formatThreshold("SP7_BUY", 0.8123)).toBe("0.8123");
    expect(formatThreshold("SP7_SELL", -250)).toBe("-250.00");
  });
});

describe("firing texts", () => {
  it("says the threshold and the value in the spread's decimals: copper 4, gold 2", () => {
    expect(reachedMessage("GC_BUY", 100, 128.384)).toBe(
      "Spread has reached 100.00 (current: 128.38)",
    );
    expect(reachedMessage("HG_BUY", 0.1, 0.12345)).toBe(
      "Spread has reached 0.1000 (current: 0.1235)",
    );
  });

  it("says the direction in words and an arrow", () => {
    expect(crossedMessage("GC_SELL", "above", 100, 128.38)).toBe(
      "crossed above 100.00 ⬆ — now 128.38",
    );
    expect(crossedMessage("SP3_BUY", "below", 0.8, 0.79)).toBe(
      "crossed below 0.8000 ⬇ — now 0.7900",
    );
  });
});

describe("serverChannels", () => {
  it("names the channels an alert has ticked, or none", () => {
    expect(serverChannels({ telegramNotify: true, webhookNotify: true })).toBe(
      "Telegram + Webhook",
    );
    expect(serverChannels({ telegramNotify: true, webhookNotify: false })).toBe("Telegram");
    expect(serverChannels({ telegramNotify: false, webhookNotify: true })).toBe("Webhook");
    expect(serverChannels({ telegramNotify: false, webhookNotify: false })).toBeUndefined();
  });
});

describe("alertTooltipLines", () => {
  it("lists a spread alert's threshold, status, sound, Telegram, limit and count", () => {
    expect(alertTooltipLines(alert({ enabled: false, notificationCount: 3 }))).toEqual([
      "Threshold: 100.00",
      "Status: Disabled",
      "Sound: Chime",
      "Telegram: No",
      "Limit: 1",
      "Count: 3",
    ]);
  });

  it("names a statistic's metric after its threshold, in the metric's decimals", () => {
    const lines = alertTooltipLines(alert({ metric: "zscore", threshold: 2, hysteresis: 0.5 }));
    expect(lines[0]).toBe("Threshold: 2.00 (Z-score)");
    expect(lines).toContain("Re-arms after moving back: 0.50");
  });

  it("adds the webhook, the reason it was switched off and what the channels sent", () => {
    const lines = alertTooltipLines(
      alert({
        telegramNotify: true,
        webhookNotify: true,
        telegramMaxNotifications: 3,
        telegramNotificationCount: 3,
        disabledReason: "Notification limit reached",
      }),
    );
    expect(lines).toContain("Webhook: Yes");
    expect(lines.slice(-2)).toEqual(["Notification limit reached", "Telegram + Webhook sent: 3/3"]);
  });

  it("capitalises a sound's id", () => {
    expect(alertSoundLabel("bell")).toBe("Bell");
  });
});
