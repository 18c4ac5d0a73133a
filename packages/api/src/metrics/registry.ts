import type { OutboxBacklog } from "@spreadwatch/db";
import { collectDefaultMetrics, Registry } from "prom-client";
import type { FeedHealthReport } from "../feeds/providers/monitor.ts";
import type { QuoteTally } from "../feeds/providers/quote-tally.ts";
import type { DeliveryCounts } from "./delivery-counts.ts";
import { outboxGauges } from "./outbox-gauges.ts";
import { counter, gauge, type Labels } from "./scraped.ts";

/** Where each metric's value is read when Prometheus scrapes; nothing here runs in between. */
export interface MetricSources {
  /** The live stream (stream/snapshot-broadcaster.ts). */
  stream: {
    readonly clientCount: number;
    readonly messagesSent: number;
    readonly bytesSent: number;
  };
  quotes: QuoteTally;
  feeds(): FeedHealthReport;
  deliveries: DeliveryCounts;
  outboxBacklog(): Promise<OutboxBacklog[]>;
  instance: { id: string; isLeader(): boolean };
  /** Logins refused for too many attempts, by the limit that refused them (auth/throttle.ts). */
  loginRefusals: Readonly<Record<string, number>>;
  now?: () => number;
}

/** Which provider serves each key, as the feed reports it; a feed without providers serves all. */
function providerOf(report: FeedHealthReport): (key: string) => string {
  const owners = new Map<string, string>();
  for (const provider of report.providers)
    for (const key of provider.keys) owners.set(key, provider.name);
  return (key) => owners.get(key) ?? report.feed;
}

/**
 * One registry per server (tests run several servers in one process, so never prom-client's
 * global one): Node's process metrics, then Spreadwatch's, named as in docs/operations.md's
 * "Monitoring" section.
 */
export function createMetricsRegistry(sources: MetricSources): Registry {
  const registry = new Registry();
  const now = sources.now ?? Date.now;
  collectDefaultMetrics({ register: registry });
  const channels = (field: "attempts" | "failures") =>
    function* (): Iterable<[Labels<"channel">, number]> {
      for (const [channel, counts] of sources.deliveries.byChannel)
        yield [{ channel }, counts[field]];
    };

  gauge(registry, "spreadwatch_stream_clients", "Live stream clients connected.", [], () => [
    [{}, sources.stream.clientCount],
  ]);
  counter(
    registry,
    "spreadwatch_stream_messages_sent_total",
    "Live stream messages (snapshots and deltas) sent, all clients together.",
    [],
    () => [[{}, sources.stream.messagesSent]],
  );
  counter(
    registry,
    "spreadwatch_stream_bytes_sent_total",
    "Live stream bytes written to client sockets (after compression), pings included.",
    [],
    () => [[{}, sources.stream.bytesSent]],
  );
  counter(
    registry,
    "spreadwatch_quotes_received_total",
    "Quotes this instance's market hub accepted, by provider, source and key.",
    ["provider", "source", "key"],
    function* () {
      const provider = providerOf(sources.feeds());
      for (const { source, key, count } of sources.quotes.entries())
        yield [{ provider: provider(key), source, key }, count];
    },
  );
  gauge(
    registry,
    "spreadwatch_provider_last_quote_age_seconds",
    "Seconds since each provider's last quote (+Inf before its first).",
    ["provider"],
    function* () {
      for (const p of sources.feeds().providers)
        yield [
          { provider: p.name },
          p.lastQuoteAgeMs === null ? Number.POSITIVE_INFINITY : p.lastQuoteAgeMs / 1000,
        ];
    },
  );
  gauge(
    registry,
    "spreadwatch_provider_market_open",
    "1 while the provider's market is open, 0 while closed; absent when it does not know.",
    ["provider"],
    function* () {
      for (const p of sources.feeds().providers)
        if (p.marketOpen !== null) yield [{ provider: p.name }, p.marketOpen ? 1 : 0];
    },
  );
  counter(
    registry,
    "spreadwatch_alert_firings_total",
    "Alert firings whose message over a channel reached its end: sent, or failed (given up).",
    ["channel", "outcome"],
    function* () {
      for (const [channel, counts] of sources.deliveries.byChannel) {
        yield [{ channel, outcome: "sent" }, counts.sent];
        yield [{ channel, outcome: "failed" }, counts.failed];
      }
    },
  );
  counter(
    registry,
    "spreadwatch_delivery_attempts_total",
    "Attempts to deliver an outbox message, by channel.",
    ["channel"],
    channels("attempts"),
  );
  counter(
    registry,
    "spreadwatch_delivery_failures_total",
    "Delivery attempts that did not deliver (retried later or given up), by channel.",
    ["channel"],
    channels("failures"),
  );
  outboxGauges(registry, sources.outboxBacklog, now);
  gauge(
    registry,
    "spreadwatch_leader",
    "1 while this instance leads (runs feeds, alerts and senders), else 0.",
    ["instance_id"],
    () => [[{ instance_id: sources.instance.id }, sources.instance.isLeader() ? 1 : 0]],
  );
  counter(
    registry,
    "spreadwatch_login_throttled_total",
    "Logins refused for too many attempts, by the limit hit: user_address or address.",
    ["scope"],
    () => Object.entries(sources.loginRefusals).map(([scope, n]) => [{ scope }, n]),
  );
  return registry;
}
