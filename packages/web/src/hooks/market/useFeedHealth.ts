import { trpc } from "../../trpc.ts";

export const FEED_HEALTH_REFRESH_MS = 5_000;

/** The server's health report (public: the dashboard shows its sources, /admin all of it). */
export function useFeedHealth() {
  return trpc.health.status.useQuery(undefined, { refetchInterval: FEED_HEALTH_REFRESH_MS });
}

export type FeedHealthQuery = ReturnType<typeof useFeedHealth>;
