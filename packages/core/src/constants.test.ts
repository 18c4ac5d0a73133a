import { describe, expect, it } from "vitest";
import {
  ALERT_COOLDOWN_MS,
  ALERT_POLL_MS,
  HEARTBEAT_MS,
  HEARTBEAT_RETRY_MS,
  NOTIFICATION_LIMIT,
  PRICE_POLL_MS,
} from "./constants.ts";

describe("docs/spec.md §9 constants", () => {
  it("match the spec", () => {
    expect(PRICE_POLL_MS).toBe(2_000);
    expect(ALERT_POLL_MS).toBe(15_000);
    expect(ALERT_COOLDOWN_MS).toBe(30_000);
    expect(HEARTBEAT_MS).toBe(10_000);
    expect(HEARTBEAT_RETRY_MS).toBe(30_000);
    expect(NOTIFICATION_LIMIT).toBe(10);
  });
});
