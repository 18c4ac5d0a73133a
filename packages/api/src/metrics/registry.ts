import type { OutboxBacklog } from "@spreadwatch/db";
import { Counter, collectDefaultMetrics, Gauge, Registry } from "prom-client";
import type { FeedHealthReport, FeedMonitor } from "../feeds/providers/monitor.ts";
import { warnEvery } from "../log.ts";
import type { SnapshotBroadcaster } from "../market/snapshot-broadcaster.ts";
import type { Services } from "../services.ts";
import { type DeliveryCounts, OUTBOX_CHANNELS } from "./delivery-counts.ts";
import type { QuoteTally } from "./quote-tally.ts";
import type { MetricsEndpoint } from "./route.ts";

/** Where each metric's value is read when Prometheus scrapes; nothing here runs in between. */
export interface MetricSources {
  /** The live stream (market/snapshot-broadcaster.ts). */
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

type Labels<L extends string> = Partial<Record<L, string>>;

/** A counter whose values are counted elsewhere, as plain numbers, and copied in on scrape. */
function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Iterable<[Labels<L>, number]>,
): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}

/** A gauge read on scrape; series missing from `read` are not reported. */
function gauge<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Iterable<[Labels<L>, number]>,
): void {
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.set(labels, value);
    },
  });
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
 * global one): Node's process metrics, then Spreadwatch's, named as in README.md's
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

/**
 * The outbox's backlog, shared by every instance (it is in the database). The registry collects
 * its metrics concurrently, so both gauges join one read per scrape; a database that cannot
 * answer leaves them empty for that scrape rather than failing the whole page.
 */
function outboxGauges(
  registry: Registry,
  read: () => Promise<OutboxBacklog[]>,
  now: () => number,
): void {
  let reading: Promise<Map<string, OutboxBacklog> | undefined> | undefined;
  const backlog = () => {
    reading ??= read()
      .then((rows) => new Map(rows.map((row) => [row.channel, row])))
      .catch((error: unknown) => {
        warnEvery("metrics-outbox", 60_000, { err: error }, "metrics: could not read the outbox");
        return undefined;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  const perChannel = (value: (row: OutboxBacklog | undefined) => number) =>
    async function (this: Gauge<"channel">) {
      const rows = await backlog();
      this.reset();
      if (rows === undefined) return;
      for (const channel of OUTBOX_CHANNELS) this.set({ channel }, value(rows.get(channel)));
    };
  new Gauge({
    name: "spreadwatch_outbox_pending",
    help: "Outbox messages neither delivered nor given up yet, by channel.",
    labelNames: ["channel"],
    registers: [registry],
    collect: perChannel((row) => row?.pending ?? 0),
  });
  new Gauge({
    name: "spreadwatch_outbox_oldest_age_seconds",
    help: "Age of the oldest message still in the outbox, by channel (0 when none waits).",
    labelNames: ["channel"],
    registers: [registry],
    collect: perChannel((row) =>
      row?.oldestCreatedAt == null ? 0 : Math.max(0, now() - row.oldestCreatedAt) / 1000,
    ),
  });
}

/** /metrics for a running server when METRICS_TOKEN is set; undefined (no such path) otherwise. */
export function metricsEndpoint(
  token: string | undefined,
  parts: { services: Services; snapshots: SnapshotBroadcaster; monitor: FeedMonitor },
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
