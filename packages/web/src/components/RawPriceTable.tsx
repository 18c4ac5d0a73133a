import {
  type BookEntry,
  formatIstTimestamp,
  formatNumber,
  instrument,
  type Prices,
  rawPriceDecimals,
  SPREAD_TABLE_GROUPS,
} from "@spreadwatch/core";
import type { FeedHealthQuery } from "../hooks/useFeedHealth.ts";
import { providerLabel, STATE_TEXT } from "../market/feedHealth.ts";
import { type FreshnessContext, freshness, isCrossed } from "../market/freshness.ts";
import { Panel } from "./Panel.tsx";
import { SourceLine } from "./SourceLine.tsx";

interface RawRow {
  source: "cme" | "mcx";
  key: string;
  name: string;
  book: BookEntry | undefined;
}

/** CME rows, then MCX rows (docs/spec.md §2), in the Spread table's commodity order. */
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
  key: string,
  context: FreshnessContext,
): string | undefined {
  const fresh = freshness(book, context.providers.get(key), context.now);
  if (fresh.kind === "cut") {
    const { name, state } = fresh.provider;
    return `${providerLabel(name)} is ${STATE_TEXT[state]}: this price is not being updated.`;
  }
  if (fresh.kind === "old") return "No update for more than 10 seconds.";
  return undefined;
}

/** "Crossed book: bid 72155.00 > ask 72140.00 …", or undefined for a sound book. */
function crossedTitle(book: BookEntry | undefined, decimals: number): string | undefined {
  if (!isCrossed(book)) return undefined;
  const bid = formatNumber(book.bid, decimals);
  const ask = formatNumber(book.ask, decimals);
  return `Crossed book: bid ${bid} > ask ${ask}. One side is wrong, so no spread is computed from it.`;
}

interface RawPriceTableProps {
  prices: Prices;
  /** The server's feed health, for the source line. */
  health?: FeedHealthQuery;
  /** The time and each key's provider, for rows that are old or whose provider is down. */
  freshness: FreshnessContext;
  /** The server cannot be reached: the source line must not claim anything is live. */
  unreachable?: boolean;
}

/**
 * Bid/ask per instrument under a line naming where they come from. A row is marked stale when
 * its quote is more than 10 s old or its provider is down; delayed and last-only prices are
 * tagged.
 */
export function RawPriceTable({ prices, health, freshness, unreachable }: RawPriceTableProps) {
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
            unreachable={unreachable === true}
            prices={prices}
            now={freshness.now}
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
            const staleWhy = staleness(book, key, freshness);
            const stale = staleWhy !== undefined;
            const decimals = rawPriceDecimals(source, key);
            const crossed = crossedTitle(book, decimals);
            return (
              <tr
                key={`${source}:${key}`}
                data-key={`${source}:${key}`}
                data-stale={stale}
                data-crossed={crossed !== undefined || undefined}
                className={stale || crossed ? "stale" : undefined}
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
                  {crossed && (
                    <span className="stale-badge" data-tag="crossed" title={crossed}>
                      crossed
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
