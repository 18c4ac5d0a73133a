import { formatIstTimestamp } from "@spreadwatch/core";
import type { InstrumentCoverage } from "../../hooks/market/useHistoryCoverage.ts";
import { DataTable } from "../ui/DataTable.tsx";
import { ScrollRegion } from "../ui/ScrollRegion.tsx";
import type { Column } from "../ui/TableHead.tsx";

const SOURCE_TEXT: Record<InstrumentCoverage["source"], string> = {
  kite: "Kite",
  yahoo: "Yahoo",
  recorded: "Recorded",
  simulated: "Simulated",
};

const COLUMNS: readonly Column[] = [
  { label: "Instrument" },
  { label: "Contract" },
  { label: "Source" },
  { label: "From" },
  { label: "To" },
  { label: "Minutes", num: true },
  { label: "Gaps" },
  { label: "Last fetch" },
  { label: <span className="visually-hidden">Actions</span> },
];

interface CoverageTableProps {
  instruments: readonly InstrumentCoverage[];
  /** Fetch one key's window again; undefined while a request is out. */
  onFetch: ((key: string) => void) | undefined;
}

/**
 * One row per instrument in use: where its past comes from, the span and minutes stored in the
 * statistics window, the windows a provider failed to fill, and the last fetch or its error;
 * a progress bar while the leader fetches (docs/market-data.md, "The past from the providers").
 */
export function CoverageTable({ instruments, onFetch }: CoverageTableProps) {
  return (
    <ScrollRegion label="History coverage">
      <DataTable label="History coverage" className="coverage-table" columns={COLUMNS}>
        {instruments.map((row) => (
          <CoverageRow key={row.key} row={row} onFetch={onFetch} />
        ))}
      </DataTable>
    </ScrollRegion>
  );
}

function CoverageRow({
  row,
  onFetch,
}: {
  row: InstrumentCoverage;
  onFetch: CoverageTableProps["onFetch"];
}) {
  const fetchable = row.source === "kite" || row.source === "yahoo" || row.error !== null;
  return (
    <tr data-key={row.key}>
      <th scope="row">{row.key}</th>
      <td>{row.contract ?? "—"}</td>
      <td>
        {SOURCE_TEXT[row.source]}
        {row.resolution !== "1m" && <span className="muted"> ({row.resolution})</span>}
      </td>
      <td className="coverage-table__time">
        {row.from === null ? "—" : formatIstTimestamp(row.from)}
      </td>
      <td className="coverage-table__time">{row.to === null ? "—" : formatIstTimestamp(row.to)}</td>
      <td className="num">{row.minutes.toLocaleString("en-IN")}</td>
      <td>
        {row.gaps.length === 0
          ? "none"
          : row.gaps.map((gap) => (
              <span key={gap.from} className="coverage-table__gap">
                {`${formatIstTimestamp(gap.from)} – ${formatIstTimestamp(gap.to)}`}
              </span>
            ))}
      </td>
      <td data-col="status">
        {row.fetching ? (
          <label className="coverage-table__progress">
            <span>{`Fetching ${row.progress.done} of ${row.progress.total}`}</span>
            <progress value={row.progress.done} max={Math.max(1, row.progress.total)} />
          </label>
        ) : (
          <span className="muted">
            {row.lastFetchAt === null ? "never" : formatIstTimestamp(row.lastFetchAt)}
          </span>
        )}
        {row.error && <span className="coverage-table__error">{row.error}</span>}
      </td>
      <td>
        {fetchable && (
          <button
            type="button"
            className="button button--small"
            disabled={!onFetch || row.fetching}
            onClick={() => onFetch?.(row.key)}
            aria-label={`Fetch ${row.key} again`}
          >
            Fetch again
          </button>
        )}
      </td>
    </tr>
  );
}
