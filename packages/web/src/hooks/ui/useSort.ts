import { useMemo, useState } from "react";

export type SortDirection = "ascending" | "descending";

/** A column's value to sort by; null or undefined (no figure yet) sorts last either way. */
export type SortValue = number | string | null | undefined;

export interface SortState<K extends string> {
  key: K | undefined;
  direction: SortDirection;
}

export interface Sorting<K extends string, T> {
  sorted: readonly T[];
  state: SortState<K>;
  /** The aria-sort a column's header carries: "none" for a sortable column not sorted by. */
  ariaSort(key: K): SortDirection | "none";
  /** A first press sorts `first` (figures: largest first), the next the other way, and so on. */
  toggle(key: K, first?: SortDirection): void;
}

function compare(a: SortValue, b: SortValue): number {
  if (typeof a === "string" && typeof b === "string") return a.localeCompare(b);
  return Number(a) - Number(b);
}

function missing(value: SortValue): boolean {
  return (
    value === null || value === undefined || (typeof value === "number" && Number.isNaN(value))
  );
}

/** Rows sorted by the column the user chose; before any choice, in the order given. */
export function useSort<K extends string, T>(
  rows: readonly T[],
  sortKeyOf: (row: T, key: K) => SortValue,
): Sorting<K, T> {
  const [state, setState] = useState<SortState<K>>({ key: undefined, direction: "descending" });
  const sorted = useMemo(() => {
    const { key, direction } = state;
    if (key === undefined) return rows;
    const sign = direction === "ascending" ? 1 : -1;
    // A stable sort: equal figures keep the order the server listed them in.
    return [...rows].sort((x, y) => {
      const a = sortKeyOf(x, key);
      const b = sortKeyOf(y, key);
      if (missing(a) || missing(b)) return Number(missing(a)) - Number(missing(b));
      return sign * compare(a, b);
    });
  }, [rows, state, sortKeyOf]);
  return {
    sorted,
    state,
    ariaSort: (key) => (state.key === key ? state.direction : "none"),
    toggle: (key, first = "descending") =>
      setState((now) =>
        now.key === key
          ? { key, direction: now.direction === "descending" ? "ascending" : "descending" }
          : { key, direction: first },
      ),
  };
}
