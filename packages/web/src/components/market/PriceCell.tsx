import { formatNumber } from "@spreadwatch/core";

interface PriceCellProps {
  value: number | undefined;
  decimals: number;
  col: string;
  /** A column phones leave to the row's details (class col--wide, hidden at ≤ 480 px). */
  wide?: boolean;
}

export function PriceCell({ value, decimals, col, wide }: PriceCellProps) {
  return (
    <td className={wide ? "num col--wide" : "num"} data-col={col}>
      {formatNumber(value, decimals)}
    </td>
  );
}
