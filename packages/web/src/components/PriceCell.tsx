import { formatNumber } from "@spreadwatch/core";

interface PriceCellProps {
  value: number | undefined;
  decimals: number;
  col: string;
}

export function PriceCell({ value, decimals, col }: PriceCellProps) {
  return (
    <td className="num" data-col={col}>
      {formatNumber(value, decimals)}
    </td>
  );
}
