import type { ReactNode } from "react";
import { type Column, TableHead } from "./TableHead.tsx";

interface DataTableProps {
  /** Its accessible name. */
  label: string;
  columns: readonly Column[];
  /** The table's own class beside "data-table", for its stylesheet. */
  className?: string;
  /** The body's rows. */
  children: ReactNode;
}

/** A named data table: its heading row (TableHead), then its rows in one body. */
export function DataTable({ label, columns, className, children }: DataTableProps) {
  return (
    <table className={className ? `data-table ${className}` : "data-table"} aria-label={label}>
      <TableHead columns={columns} />
      <tbody>{children}</tbody>
    </table>
  );
}
