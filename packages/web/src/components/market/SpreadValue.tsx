import { formatSigned } from "@spreadwatch/core";
import { useHighlight } from "../../hooks/ui/useHighlight.ts";
import type { InputMarks } from "../../market/inputMarks.ts";
import { InputTags } from "./InputTags.tsx";

interface SpreadValueProps {
  value: number | undefined;
  decimals: number;
  /** Tooltip for a value that cannot be computed, naming what is missing. */
  missingTitle?: string;
  /** Delayed or last-price-only inputs, tagged beside a computed value. */
  marks?: InputMarks;
  /** A z-score shown as a small chip, where the table has no z column (phones). */
  z?: number;
  /** A ratio's sign says nothing (it is always positive): no green or red. */
  unsigned?: boolean;
}

function signClass(value: number | undefined): string | undefined {
  if (value === undefined || value === 0) return undefined;
  return value > 0 ? "positive" : "negative";
}

/** A signed spread cell: green above 0, red below, flashing on moves (docs/spec.md §4). */
export function SpreadValue(props: SpreadValueProps) {
  const { value, decimals, missingTitle, marks, z } = props;
  const highlight = useHighlight(value);
  const classes = [
    "num",
    "spread",
    !props.unsigned && signClass(value),
    highlight && `highlight-${highlight}`,
  ];
  return (
    <td
      className={classes.filter(Boolean).join(" ")}
      data-col="spread"
      data-highlight={highlight}
      title={value === undefined ? missingTitle : undefined}
    >
      {formatSigned(value, decimals)}
      {value !== undefined && marks && <InputTags marks={marks} />}
      {value !== undefined && z !== undefined && (
        <span className="z-chip" title="z-score">
          z {z.toFixed(1)}
        </span>
      )}
    </td>
  );
}
