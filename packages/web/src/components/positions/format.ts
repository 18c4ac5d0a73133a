import { formatNumber, formatSignedText, MINUS_SIGN } from "@spreadwatch/core";

const rupees = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });
const paise = new Intl.NumberFormat("en-IN", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** "+₹12,400" / "−₹1,250" / "₹0": whole rupees, signed, for P&L figures; "—" when unknown. */
export function signedRupees(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  const text = rupees.format(Math.abs(value));
  if (text === "0") return "₹0";
  return `${value > 0 ? "+" : MINUS_SIGN}₹${text}`;
}

/** "₹1,84,320": whole rupees without a sign, for margins and costs. */
export function plainRupees(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return `₹${rupees.format(value)}`;
}

/** "1,234.56": rupees to paise, for the breakdown lines and the CSV-like detail. */
export function paiseText(value: number): string {
  return paise.format(value);
}

/** "+2.31 %" / "−0.21 %" from a fraction (0.0231); "—" when there is no margin to divide by. */
export function signedPercent(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return "—";
  return `${formatSignedText(fraction * 100, 2)} %`;
}

/** "3 d" from a day on, "5 h" or "12 min" before: how long a position has been held. */
export function daysText(days: number | null | undefined): string {
  if (days === null || days === undefined || !Number.isFinite(days)) return "—";
  if (days >= 1) return `${formatNumber(Math.floor(days), 0)} d`;
  return holdingText(days * 86_400_000);
}

/** "2 d 4 h", "5 h", "12 min": an average holding time. */
export function holdingText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h`;
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return rest > 0 ? `${days} d ${rest} h` : `${days} d`;
}

/** "positive" / "negative" for the sign colours the spread cells use; undefined for zero or unknown. */
export function signClass(value: number | null | undefined): string | undefined {
  if (value === null || value === undefined || value === 0 || !Number.isFinite(value)) {
    return undefined;
  }
  return value > 0 ? "positive" : "negative";
}
