import {
  type BookEntry,
  contractMonthLabel,
  formatIstTimestamp,
  formatNumber,
  type PriceEntry,
  type Prices,
} from "@spreadwatch/core";
import { memo, useId, useState } from "react";
import type { FeedHealthQuery } from "../../hooks/market/useFeedHealth.ts";
import { useMediaQuery } from "../../hooks/ui/useMediaQuery.ts";
import { providerLabel, STATE_TEXT } from "../../market/feedHealth.ts";
import { type FreshnessContext, freshness, isCrossed } from "../../market/freshness.ts";
import {
  formatExpiry,
  type InstrumentInfo,
  type PriceGroup,
  type PriceRow,
  priceGroups,
} from "../../market/priceRows.ts";
import { samePriceRow } from "../../market/sameRow.ts";
import { Panel } from "../ui/Panel.tsx";
import { SourceLine } from "./SourceLine.tsx";

/** Phones fold the table by exchange: a tap on a group's header shows its rows. */
const FOLD_BY_EXCHANGE = "(max-width: 480px)";

const DELAYED_TITLE =
  "Delayed: its source publishes late on purpose (Yahoo's futures, for one, run 10–15 minutes behind the exchange). A spread built on it is an indication, not a price to trade on.";
const LAST_ONLY_TITLE =
  "Last traded price on both sides: the source gave no bid/ask, so this commodity's BUY and SELL spreads coincide.";

/** Why a row is stale: its provider cannot update it, or its quote is older than 10 s. */
function staleness(
  book: BookEntry | PriceEntry | undefined,
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
function crossedTitle(
  book: BookEntry | PriceEntry | undefined,
  decimals: number,
): string | undefined {
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
  /** The instruments in use, from the server's list (empty until it answers). */
  instruments?: readonly InstrumentInfo[];
}

const NO_INSTRUMENTS: readonly InstrumentInfo[] = [];

/**
 * Bid/ask (or the price) of every instrument in use, grouped by exchange, under a line naming
 * where they come from; a future's row names its contract and expiry. A row is marked stale when
 * its quote is more than 10 s old or its provider is down; delayed and last-only prices are
 * tagged. On a phone each exchange folds under its header.
 */
export function RawPriceTable(props: RawPriceTableProps) {
  const { prices, health, freshness, unreachable, instruments = NO_INSTRUMENTS } = props;
  const foldable = useMediaQuery(FOLD_BY_EXCHANGE);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (label: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(label)) next.add(label);
      return next;
    });
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
        {priceGroups(prices, instruments).map((group) => (
          <PriceGroupRows
            key={group.label}
            group={group}
            freshness={freshness}
            folded={foldable ? !open.has(group.label) : undefined}
            onToggle={() => toggle(group.label)}
          />
        ))}
      </table>
    </Panel>
  );
}

interface PriceGroupRowsProps {
  group: PriceGroup;
  freshness: FreshnessContext;
  /** Undefined where groups do not fold (wider screens): the header is a plain label. */
  folded: boolean | undefined;
  onToggle: () => void;
}

function PriceGroupRows({ group, freshness, folded, onToggle }: PriceGroupRowsProps) {
  const id = useId();
  const rowIds = group.rows.map((_, i) => `${id}-${i}`);
  const count = group.rows.length;
  return (
    <tbody data-group={group.label}>
      <tr className="group-row">
        <th scope="rowgroup" colSpan={4}>
          {folded === undefined ? (
            group.label
          ) : (
            <button
              type="button"
              className="group-toggle"
              aria-expanded={!folded}
              aria-controls={rowIds.join(" ")}
              onClick={onToggle}
            >
              <span className="group-toggle__label">{group.label}</span>{" "}
              <span className="group-toggle__count">
                {count} {count === 1 ? "instrument" : "instruments"}
              </span>
            </button>
          )}
        </th>
      </tr>
      {group.rows.map((row, i) => (
        <PriceRowView
          key={row.key}
          id={rowIds[i]}
          row={row}
          freshness={freshness}
          hidden={folded}
        />
      ))}
    </tbody>
  );
}

interface PriceRowViewProps {
  id: string | undefined;
  row: PriceRow;
  freshness: FreshnessContext;
  hidden: boolean | undefined;
}

/** Renders again only when its row's quote or fields, the time or its folding changed. */
const PriceRowView = memo(PriceRowContent, samePriceRow);

function PriceRowContent({ id, row, freshness, hidden }: PriceRowViewProps) {
  const { source, key, entry, decimals } = row;
  const staleWhy = staleness(entry, key, freshness);
  const stale = staleWhy !== undefined;
  const crossed = crossedTitle(entry, decimals);
  const book = entry as BookEntry | undefined;
  return (
    <tr
      id={id}
      hidden={hidden}
      data-key={`${source}:${key}`}
      data-stream-key={key}
      data-stale={stale}
      data-crossed={crossed !== undefined || undefined}
      className={stale || crossed ? "stale" : undefined}
    >
      <th scope="row" className="symbol" title={row.name}>
        <span className="venue">{row.venue}</span> {key}
        {row.contract && (
          <span className="contract-line">
            <span className="contract" data-col="contract">
              {row.contract}
            </span>
            {/* Phones show the month alone (26DEC); the full name stays for screen readers. */}
            <span className="contract-month" aria-hidden="true">
              {contractMonthLabel(row.contract)}
            </span>{" "}
            {row.expiry && (
              <span className="expiry" data-col="expiry" title="Last trading day">
                exp {formatExpiry(row.expiry)}
              </span>
            )}
          </span>
        )}
      </th>
      {row.book ? (
        <>
          <td className="num" data-col="bid">
            {formatNumber(book?.bid, decimals)}
          </td>
          <td className="num" data-col="ask">
            {formatNumber(book?.ask, decimals)}
          </td>
        </>
      ) : (
        <td className="num" colSpan={2} data-col="price">
          {formatNumber((entry as PriceEntry | undefined)?.price, decimals)}
        </td>
      )}
      <td className="timestamp" data-col="timestamp">
        <Timestamp epochMs={entry?.timestamp} />
        {entry?.delayed && (
          <span className="price-tag" data-tag="delayed" title={DELAYED_TITLE}>
            delayed
          </span>
        )}
        {entry?.lastOnly && (
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
