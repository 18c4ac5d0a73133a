import {
  type BookEntry,
  formatIstTimestamp,
  formatNumber,
  instrument,
  isStale,
  type Prices,
  rawPriceDecimals,
  SPREAD_TABLE_GROUPS,
} from "@spreadwatch/core";
import type { FeedHealthQuery } from "../hooks/useFeedHealth.ts";
import { useNow } from "../hooks/useNow.ts";
import {
  isCut,
  type ProviderHealth,
  providerLabel,
  providersByKey,
  STATE_TEXT,
} from "../market/feedHealth.ts";
import { Panel } from "./Panel.tsx";
import { SourceLine } from "./SourceLine.tsx";

interface RawRow {
  source: "cme" | "mcx";
  key: string;
  name: string;
  book: BookEntry | undefined;
}

/** CME rows, then MCX rows (spec §2), in the Spread table's commodity order. */
function rawRows(prices: Prices): RawRow[] {
  const rows = (source: RawRow["source"]) =>
    SPREAD_TABLE_GROUPS.map((id) => {
      const inst = instrument(id);
      const key = source === "cme" ? inst.cmeKey : inst.mcxKey;
      const book = source === "cme" ? prices.cme[inst.cmeKey] : prices.mcx[inst.mcxKey];
      return { source, key, name: inst.name, book };
    });
  return [...rows("cme"), ...rows("mcx")];
}

const DELAYED_TITLE =
  "Delayed: its source publishes late on purpose (Yahoo's futures, for one, run 10–15 minutes behind the exchange). A spread built on it is an indication, not a price to trade on.";
const LAST_ONLY_TITLE =
  "Last traded price on both sides: the source gave no bid/ask, so this commodity's BUY and SELL spreads coincide.";

/** Why a row is stale: its provider cannot update it, or its quote is older than 10 s. */
function staleness(
  book: BookEntry | undefined,
  provider: ProviderHealth | undefined,
  now: number,
): string | undefined {
  if (provider && isCut(provider.state, book?.delayed === true)) {
    return `${providerLabel(provider.name)} is ${STATE_TEXT[provider.state]}: this price is not being updated.`;
  }
  // A delayed source's timestamps are old by design; its provider's state says whether it flows.
  if (book?.delayed) return undefined;
  if (isStale(book?.timestamp, now)) return "No update for more than 10 seconds.";
  return undefined;
}

interface RawPriceTableProps {
  prices: Prices;
  /** The server's feed health, for the source line and for rows whose provider is down. */
  health?: FeedHealthQuery;
}

/**
 * Bid/ask per instrument under a line naming where they come from. A row is marked stale when
 * its quote is more than 10 s old or its provider is down; delayed and last-only prices are
 * tagged.
 */
export function RawPriceTable({ prices, health }: RawPriceTableProps) {
  const now = useNow();
  const byKey = providersByKey(health?.data?.providers);
  return (
    <Panel
      title="Prices"
      className="panel--raw"
      note={
        health && (
          <SourceLine
            health={health.data}
            fetchedAt={health.dataUpdatedAt}
            failed={health.isError}
            prices={prices}
            now={now}
          />
        )
      }
      footer={<p className="last-updated">Last updated: {formatIstTimestamp(prices.timestamp)}</p>}
    >
      <table className="data-table" aria-label="Prices">
        <thead>
          <tr>
            <th scope="col">Commodity</th>
            <th scope="col" className="num">
              Bid Price
            </th>
            <th scope="col" className="num">
              Ask Price
            </th>
            <th scope="col">Timestamp</th>
          </tr>
        </thead>
        <tbody>
          {rawRows(prices).map(({ source, key, name, book }) => {
            const staleWhy = staleness(book, byKey.get(key), now);
            const stale = staleWhy !== undefined;
            const decimals = rawPriceDecimals(source, key);
            return (
              <tr
                key={`${source}:${key}`}
                data-key={`${source}:${key}`}
                data-stale={stale}
                className={stale ? "stale" : undefined}
              >
                <th scope="row" className="symbol" title={name}>
                  <span className="venue">{source.toUpperCase()}</span> {key}
                </th>
                <td className="num" data-col="bid">
                  {formatNumber(book?.bid, decimals)}
                </td>
                <td className="num" data-col="ask">
                  {formatNumber(book?.ask, decimals)}
                </td>
                <td className="timestamp" data-col="timestamp">
                  <Timestamp epochMs={book?.timestamp} />
                  {book?.delayed && (
                    <span className="price-tag" data-tag="delayed" title={DELAYED_TITLE}>
                      delayed
                    </span>
                  )}
                  {book?.lastOnly && (
                    <span className="price-tag" data-tag="last-only" title={LAST_ONLY_TITLE}>
                      last
                    </span>
                  )}
                  {stale && (
                    <span className="stale-badge" title={staleWhy}>
                      stale
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Panel>
  );
}

/** Date and time as separate runs, so a narrow screen can put them on two lines. */
function Timestamp({ epochMs }: { epochMs: number | undefined }) {
  const [date, time] = formatIstTimestamp(epochMs).split(", ");
  if (time === undefined) return <span>{date}</span>;
  return (
    <>
      <span className="timestamp__date">{date},</span>{" "}
      <span className="timestamp__time">{time}</span>
    </>
  );
}
