import type { Prices } from "@spreadwatch/core";
import { useQuoteArrivals } from "../../hooks/market/useQuoteArrivals.ts";
import {
  type FeedHealth,
  formatAge,
  type ProviderHealth,
  providerLabel,
  quoteAgeMs,
  STATE_HINT,
  STATE_TEXT,
} from "../../market/feedHealth.ts";

interface SourceLineProps {
  health: FeedHealth | undefined;
  /** When `health` was fetched, on this browser's clock. */
  fetchedAt: number;
  failed: boolean;
  /** The server is out of reach: whatever health said last, nothing is known to be live. */
  unreachable: boolean;
  prices: Prices;
  now: number;
}

/** "Kite · live · 0 s ago  Yahoo · delayed · 3 s ago": where the prices below come from. */
export function SourceLine({
  health,
  fetchedAt,
  failed,
  unreachable,
  prices,
  now,
}: SourceLineProps) {
  const arrivals = useQuoteArrivals(prices);
  if (unreachable) {
    return (
      <p className="source-line source-line--pending" data-state="unreachable">
        Price sources: unknown, the server cannot be reached
      </p>
    );
  }
  if (!health) {
    return (
      <p className="source-line source-line--pending">
        {failed ? "Price sources: status unavailable" : "Price sources: checking…"}
      </p>
    );
  }
  return (
    <ul className="source-line" aria-label="Price sources">
      {health.providers.map((provider) => (
        <SourceItem
          key={provider.name}
          provider={provider}
          ageMs={quoteAgeMs(provider, fetchedAt, now, arrivals.latest(provider.keys))}
        />
      ))}
    </ul>
  );
}

function SourceItem({ provider, ageMs }: { provider: ProviderHealth; ageMs: number | null }) {
  const title = [
    `${provider.name}: ${STATE_HINT[provider.state]}`,
    provider.keys.length > 0 && `Serves ${provider.keys.join(", ")}`,
    provider.lastError && `Last error: ${provider.lastError}`,
  ]
    .filter(Boolean)
    .join("\n");
  return (
    <li
      className={`source-line__item state--${provider.state}`}
      data-provider={provider.name}
      data-state={provider.state}
      title={title}
    >
      <span className="state-dot" aria-hidden="true" />
      <span className="source-line__name">{providerLabel(provider.name)}</span>
      {" · "}
      <span className="source-line__state">{STATE_TEXT[provider.state]}</span>
      {" · "}
      <span className="source-line__age">{formatAge(ageMs)}</span>
    </li>
  );
}
