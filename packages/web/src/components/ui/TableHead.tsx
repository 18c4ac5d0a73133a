import type { ReactNode } from "react";

/** A column heading of a data table. */
export interface Column {
  label: ReactNode;
  /** Right-aligned figures ("num"). */
  num?: boolean;
  /** Hidden on a phone with the table's other wide columns ("col--wide", docs/user-guide.md). */
  wide?: boolean;
  /** What the heading means, when its label is short. */
  title?: string;
  /** A class of the table's own stylesheet, beside the ones above. */
  className?: string;
}

/** A data table's heading row, each heading a column header (scope="col"). */
export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, i) => (
          <th
            // Headings never move: their place is their identity.
            key={i}
            scope="col"
            className={
              [column.num && "num", column.wide && "col--wide", column.className]
                .filter(Boolean)
                .join(" ") || undefined
            }
            title={column.title}
          >
            {column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
