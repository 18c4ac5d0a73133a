import {
  ALERT_METRICS,
  CROSSING_SIDES,
  FIRING_SOURCES,
  FIRING_STATES,
  type FiringChannel,
  type FiringEntry,
  OUTBOX_CHANNELS,
  POSITION_NET_METRIC,
  type Store,
} from "@spreadwatch/db";
import { z } from "zod";
import type { ShapeOf } from "../shared-schemas.ts";

const firingChannel = z.object({
  channel: z.enum([...OUTBOX_CHANNELS, "browser"]),
  state: z.enum(["pending", "sent", "failed"]),
  attempts: z.number(),
} satisfies ShapeOf<FiringChannel>);

/** One History entry as the store keeps it: what `alerts.history` answers with. */
export const historyEntry = z.object({
  id: z.number(),
  alertId: z.number().nullable(),
  symbol: z.string(),
  // An alert's metric, or "net": a position's net ₹ against its target or stop.
  metric: z.enum([...ALERT_METRICS, POSITION_NET_METRIC]),
  value: z.number(),
  threshold: z.number(),
  direction: z.enum(CROSSING_SIDES),
  firedAt: z.number(),
  state: z.enum(FIRING_STATES),
  source: z.enum(FIRING_SOURCES),
  note: z.string().nullable(),
  channels: z.array(firingChannel),
} satisfies ShapeOf<FiringEntry>);

/**
 * Most entries one quote can give one user: their alerts (at most 100) fire or are held at most
 * once each per quote, plus browser entries; well above, so a group is never cut.
 */
const MAX_SAME_TIME_GROUP = 1_000;

/**
 * One page of a user's history, newest first. The cursor is `firedAt` only (the spec's `before`),
 * so a page never ends inside a group of entries that share a firedAt: a full page is completed
 * with the rest of its last group. Otherwise the next page (`before` = that firedAt, exclusive)
 * would skip the rest of the group — easy in a crossing storm, where one quote fires many alerts.
 */
export async function historyPage(
  store: Store,
  userId: number,
  limit: number,
  before?: number,
): Promise<FiringEntry[]> {
  const page = await store.firings.list(userId, { limit, before });
  const last = page.at(-1);
  if (page.length < limit || !last) return page;
  const rest = await store.firings.list(userId, {
    limit: MAX_SAME_TIME_GROUP,
    sameTime: { firedAt: last.firedAt, belowId: last.id },
  });
  return [...page, ...rest];
}
