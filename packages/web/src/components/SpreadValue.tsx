import { formatSigned } from "@spreadwatch/core";
import { useHighlight } from "../hooks/useHighlight.ts";

interface SpreadValueProps {
  value: number | undefined;
  decimals: number;
  /** Tooltip for a value that cannot be computed, naming what is missing. */
  missingTitle?: string;
}

function signClass(value: number | undefined): string | undefined {
  if (value === undefined || value === 0) return undefined;
  return value > 0 ? "positive" : "negative";
}

/** A signed spread cell: green above 0, red below, flashing on moves (spec §4). */
export function SpreadValue({ value, decimals, missingTitle }: SpreadValueProps) {
  const highlight = useHighlight(value);
  const classes = ["num", "spread", signClass(value), highlight && `highlight-${highlight}`];
  return (
    <td
      className={classes.filter(Boolean).join(" ")}
      data-col="spread"
      data-highlight={highlight}
      title={value === undefined ? missingTitle : undefined}
    >
      {formatSigned(value, decimals)}
    </td>
  );
}
