import type { AppRouter } from "@spreadwatch/api";
import { httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { createTRPCReact } from "@trpc/react-query";
import { JitteredEventSource } from "./market/jitteredEventSource.ts";

const API_URL = "/api/trpc";

export const trpc = createTRPCReact<AppRouter>();

/**
 * Subscriptions ride one SSE stream per tab, reconnecting after a jittered 0.5–5 s so a server
 * restart does not bring every tab back at once; queries and mutations are batched over fetch.
 */
export function createTrpcClient() {
  return trpc.createClient({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({ url: API_URL, EventSource: JitteredEventSource }),
        false: httpBatchLink({ url: API_URL }),
      }),
    ],
  });
}
