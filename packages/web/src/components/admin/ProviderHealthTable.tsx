import { formatIstTimestamp } from "@spreadwatch/core";
import {
  type FeedHealth,
  formatAge,
  type ProviderHealth,
  STATE_HINT,
  STATE_TEXT,
} from "../../market/feedHealth.ts";
import { DataTable } from "../ui/DataTable.tsx";
import type { Column } from "../ui/TableHead.tsx";

const COLUMNS: readonly Column[] = [
  { label: "Provider" },
  { label: "State" },
  { label: "Last quote" },
  { label: "Reconnects", num: true },
  { label: "Last error" },
  { label: "Keys" },
];
/** Shown only when a provider reports its contracts. */
const CONTRACTS: Column = { label: "Contracts" };

interface ProviderHealthTableProps {
  report: FeedHealth;
  /** Milliseconds since the report was fetched, so ages keep counting between refreshes. */
  elapsedMs: number;
  /** Where an admin does the day's Kite login, when a Kite provider waits for it. */
  kiteLoginHref?: string;
}

/**
 * One row per provider: state, last quote, reconnects, last error, keys and (Kite) contracts —
 * the long key lists last, so a phone shows what matters before it scrolls sideways.
 */
export function ProviderHealthTable({
  report,
  elapsedMs,
  kiteLoginHref,
}: ProviderHealthTableProps) {
  const withContracts = report.providers.some((p) => p.contracts !== undefined);
  const columns = withContracts ? [...COLUMNS, CONTRACTS] : COLUMNS;
  return (
    <div className="panel__scroll">
      <DataTable label="Providers" className="health-table" columns={columns}>
        {report.providers.map((provider) => (
          <ProviderRow
            key={provider.name}
            provider={provider}
            elapsedMs={elapsedMs}
            // lastErrorAt is on the server's clock, as is the report's own timestamp.
            serverNow={report.timestamp + elapsedMs}
            withContracts={withContracts}
            kiteLoginHref={kiteLoginHref}
          />
        ))}
      </DataTable>
    </div>
  );
}

interface ProviderRowProps {
  provider: ProviderHealth;
  elapsedMs: number;
  serverNow: number;
  withContracts: boolean;
  kiteLoginHref: string | undefined;
}

function ProviderRow({
  provider,
  elapsedMs,
  serverNow,
  withContracts,
  kiteLoginHref,
}: ProviderRowProps) {
  // An error from an outage that is over is history, not an alarm.
  const failing = provider.state === "down" || provider.state === "not_configured";
  const lastQuoteAge =
    provider.lastQuoteAgeMs === null ? null : provider.lastQuoteAgeMs + elapsedMs;
  return (
    <tr data-provider={provider.name}>
      <th scope="row" className="health-table__name">
        {provider.name}
        {provider.kind !== provider.name && (
          <span className="health-table__kind">{provider.kind}</span>
        )}
      </th>
      <td data-label="State" data-col="state">
        <StateCell provider={provider} kiteLoginHref={kiteLoginHref} />
      </td>
      <td
        data-label="Last quote"
        data-col="last-quote"
        title={provider.lastQuoteAt === null ? undefined : formatIstTimestamp(provider.lastQuoteAt)}
      >
        {formatAge(lastQuoteAge)}
      </td>
      <td data-label="Reconnects" data-col="reconnects" className="num">
        {provider.reconnects}
      </td>
      <td data-label="Last error" data-col="last-error" className="health-table__wrap">
        {provider.lastError === null ? (
          <span className="muted">none</span>
        ) : (
          <>
            <span className={failing ? "health-table__error" : undefined}>
              {provider.lastError}
            </span>
            {provider.lastErrorAt !== null && (
              <span className="muted"> ({formatAge(serverNow - provider.lastErrorAt)})</span>
            )}
          </>
        )}
      </td>
      <td data-label="Keys" data-col="keys" className="health-table__wrap">
        {provider.keys.length > 0 ? provider.keys.join(", ") : "—"}
      </td>
      {withContracts && (
        <td data-label="Contracts" data-col="contracts" className="health-table__wrap">
          {Object.entries(provider.contracts ?? {}).map(([key, contract]) => (
            <div key={key}>{`${key}: ${contract}`}</div>
          ))}
        </td>
      )}
    </tr>
  );
}

function StateCell({
  provider,
  kiteLoginHref,
}: {
  provider: ProviderHealth;
  kiteLoginHref?: string;
}) {
  return (
    <>
      <span className={`health-state state--${provider.state}`} title={STATE_HINT[provider.state]}>
        <span className="state-dot" aria-hidden="true" />
        {STATE_TEXT[provider.state]}
      </span>
      {provider.marketOpen === false && <div className="muted">market closed</div>}
      {kiteLoginHref && provider.kind === "kite" && provider.state === "not_configured" && (
        <div>
          <a href={kiteLoginHref}>Log in to Kite</a>
        </div>
      )}
    </>
  );
}
