import type { Store } from "@spreadwatch/db";
import type { LoginThrottle } from "../auth/throttle.ts";
import type { FeedMonitor } from "../feeds/providers/monitor.ts";
import type { LiveStream } from "../stream/stream-fanout.ts";
import type { DeliveryCounts } from "./delivery-counts.ts";
import { createMetricsRegistry } from "./registry.ts";
import type { MetricsEndpoint } from "./route.ts";

/** /metrics for a running server when METRICS_TOKEN is set; undefined (no such path) otherwise. */
export function metricsEndpoint(
  token: string | undefined,
  parts: {
    services: {
      deliveries: DeliveryCounts;
      store: Store;
      instance: { id: string; isLeader: () => boolean };
      loginThrottle: LoginThrottle;
    };
    snapshots: LiveStream;
    monitor: FeedMonitor;
  },
): MetricsEndpoint | undefined {
  if (token === undefined) return undefined;
  const { services, snapshots, monitor } = parts;
  const registry = createMetricsRegistry({
    stream: snapshots,
    quotes: monitor.quotes,
    feeds: () => monitor.report(),
    deliveries: services.deliveries,
    outboxBacklog: () => services.store.outbox.backlog(),
    instance: services.instance,
    loginRefusals: services.loginThrottle.refusals,
  });
  return { token, registry };
}
