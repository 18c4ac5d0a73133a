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
import { useNow } from "../hooks/useNow.ts";
import { Panel } from "./Panel.tsx";

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

/** Bid/ask per instrument; a row whose quote is more than 10 s old is marked stale. */
export function RawPriceTable({ prices }: { prices: Prices }) {
  const now = useNow();
  return (
    <Panel
      title="Prices"
      className="panel--raw"
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
            const stale = isStale(book?.timestamp, now);
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
                  {stale && <span className="stale-badge">stale</span>}
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
