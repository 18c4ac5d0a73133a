import { formatIstTimestamp } from "@spreadwatch/core";
import { FEED_HEALTH_REFRESH_MS, useFeedHealth } from "../../hooks/market/useFeedHealth.ts";
import { useNow } from "../../hooks/ui/useNow.ts";
import { type FeedHealth, formatAge, formatDuration } from "../../market/feedHealth.ts";
import { trpc } from "../../trpc.ts";
import { Message } from "../ui/Message.tsx";
import { ProviderHealthTable } from "./ProviderHealthTable.tsx";

const KITE_LOGIN_HREF = "/api/kite/login";

/** The server's /api/health for admins: every provider, the database, Telegram, uptime, version. */
export function MarketDataHealth() {
  const health = useFeedHealth();
  const now = useNow();
  const report = health.data;
  const hasKite = report?.providers.some((p) => p.kind === "kite") ?? false;
  const kite = trpc.kite.status.useQuery(undefined, { enabled: hasKite });

  if (!report) {
    if (health.isError) {
      return (
        <Message tone="error">{`Error loading market data health: ${health.error.message}`}</Message>
      );
    }
    return <p className="muted">Checking market data health…</p>;
  }
  const elapsedMs = Math.max(0, now - health.dataUpdatedAt);
  return (
    <>
      {!report.ok && (
        <Message tone="error">
          No fresh price from any provider: /api/health answers 503 until one delivers again.
        </Message>
      )}
      <HealthFacts report={report} elapsedMs={elapsedMs} />
      <ProviderHealthTable
        report={report}
        elapsedMs={elapsedMs}
        kiteLoginHref={kite.data?.configured ? KITE_LOGIN_HREF : undefined}
      />
      <p className="muted health__checked">
        {health.isError
          ? `Could not refresh: ${health.error.message}. Showing the report from ${formatIstTimestamp(health.dataUpdatedAt)}.`
          : `Refreshes every ${FEED_HEALTH_REFRESH_MS / 1000} s · last checked ${formatIstTimestamp(health.dataUpdatedAt)}`}
      </p>
    </>
  );
}

function HealthFacts({ report, elapsedMs }: { report: FeedHealth; elapsedMs: number }) {
  const lastQuote =
    report.prices.lastQuoteAgeMs === null ? null : report.prices.lastQuoteAgeMs + elapsedMs;
  const facts: Array<[label: string, value: string, tone?: "bad" | "good"]> = [
    ["Feed", report.feed],
    [
      "Prices",
      `${report.prices.fresh ? "fresh" : "not fresh"} · ${formatAge(lastQuote)}`,
      report.prices.fresh ? "good" : "bad",
    ],
    [
      "Database",
      report.database.ok ? "OK" : `error: ${report.database.error ?? "unknown"}`,
      report.database.ok ? "good" : "bad",
    ],
    ["Telegram", report.telegram.configured ? "configured" : "not configured"],
    ["Uptime", formatDuration(report.uptimeSeconds + elapsedMs / 1000)],
    ["Version", report.version],
  ];
  return (
    <dl className="health-facts">
      {facts.map(([label, value, tone]) => (
        <div key={label} className="health-facts__item" data-fact={label.toLowerCase()}>
          <dt>{label}</dt>
          <dd className={tone ? `health-facts__value--${tone}` : undefined}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
