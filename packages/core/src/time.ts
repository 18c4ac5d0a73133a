import { MISSING_VALUE } from "./decimals.ts";
import type { Timeframe } from "./timeframe.ts";

/** Every time the product shows is Indian Standard Time (docs/spec.md §9). */
export const IST_TIME_ZONE = "Asia/Kolkata";

// Building an Intl.DateTimeFormat costs far more than formatting with one, and the raw price
// table formats a timestamp per row every update, so each formatter is built once, on first use.
let timestampFormat: Intl.DateTimeFormat | undefined;
let timeFormat: Intl.DateTimeFormat | undefined;
let chartFormat: Intl.DateTimeFormat | undefined;

function istTimestampFormat(): Intl.DateTimeFormat {
  timestampFormat ??= new Intl.DateTimeFormat("en-IN", {
    timeZone: IST_TIME_ZONE,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
  });
  return timestampFormat;
}

function istTimeFormat(): Intl.DateTimeFormat {
  timeFormat ??= new Intl.DateTimeFormat("en-IN", {
    timeZone: IST_TIME_ZONE,
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
  });
  return timeFormat;
}

/**
 * The chart's patterns ('MMM dd, yyyy HH:mm', 'dd MMM', 'HH:mm') are assembled from parts.
 * The parts come from en-US because en-IN abbreviates September as "Sept", which a fixed
 * three-letter MMM pattern does not expect; h23 keeps midnight "00" rather than "24".
 */
function chartParts(epochMs: number): Record<"year" | "month" | "day" | "hour" | "minute", string> {
  chartFormat ??= new Intl.DateTimeFormat("en-US", {
    timeZone: IST_TIME_ZONE,
    year: "numeric",
    month: "short",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  const parts = { year: "", month: "", day: "", hour: "", minute: "" };
  for (const { type, value } of chartFormat.formatToParts(epochMs)) {
    if (type in parts) parts[type as keyof typeof parts] = value;
  }
  return parts;
}

function isTime(epochMs: number | null | undefined): epochMs is number {
  // Beyond ±8.64e15 ms a Date is invalid and Intl would throw.
  return (
    epochMs !== null &&
    epochMs !== undefined &&
    Number.isFinite(epochMs) &&
    Math.abs(epochMs) <= 8.64e15
  );
}

/** Date and time in IST, en-IN style: "21/11/2026, 11:24:46 pm IST". */
export function formatIstTimestamp(epochMs: number | null | undefined): string {
  if (!isTime(epochMs)) return MISSING_VALUE;
  return `${istTimestampFormat().format(epochMs)} IST`;
}

/** Time of day in IST, en-IN style: "11:24:46 pm IST". */
export function formatIstTime(epochMs: number | null | undefined): string {
  if (!isTime(epochMs)) return MISSING_VALUE;
  return `${istTimeFormat().format(epochMs)} IST`;
}

/** Chart tooltip title, 'MMM dd, yyyy HH:mm' in IST: "Nov 21, 2026 23:24". */
export function formatChartTitle(epochMs: number | null | undefined): string {
  if (!isTime(epochMs)) return MISSING_VALUE;
  const p = chartParts(epochMs);
  return `${p.month} ${p.day}, ${p.year} ${p.hour}:${p.minute}`;
}

/**
 * A row of x-axis ticks (ascending): each one's formatTickLabel, and below 1d the first tick
 * and every tick on a new IST day get that day under the time ("00:00\n22 Nov"), as trading
 * charts mark day changes. Without it, ticks a day or more apart at 1h or 4h all read "00:00".
 */
export function formatTickLabels(ticks: readonly number[], timeframe: Timeframe): string[] {
  let lastDay = "";
  return ticks.map((tick) => {
    const label = formatTickLabel(tick, timeframe);
    if (timeframe === "1d" || !isTime(tick)) return label;
    const day = formatTickLabel(tick, "1d");
    if (day === lastDay) return label;
    lastDay = day;
    return `${label}\n${day}`;
  });
}

/** Chart x-axis tick in IST: 'dd MMM' ("21 Nov") for 1d candles, else 'HH:mm' ("23:24"). */
export function formatTickLabel(epochMs: number | null | undefined, timeframe: Timeframe): string {
  if (!isTime(epochMs)) return MISSING_VALUE;
  const p = chartParts(epochMs);
  return timeframe === "1d" ? `${p.day} ${p.month}` : `${p.hour}:${p.minute}`;
}
