/**
 * When a market trades, in its own time zone: `days` are 0 = Sunday … 6 = Saturday, `open` and
 * `close` are "HH:MM"; a close before the open means the session runs past midnight (the day is
 * the day it opened). Exchange holidays are not known, so a holiday counts as open.
 */
export type MarketHours =
  | "always"
  | { timeZone: string; days: readonly number[]; open: string; close: string };

/** MCX: Monday to Friday, 09:00 to 23:55 IST (23:30 in the northern winter; the later bound covers both). */
export const MCX_HOURS: MarketHours = {
  timeZone: "Asia/Kolkata",
  days: [1, 2, 3, 4, 5],
  open: "09:00",
  close: "23:55",
};

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const formatters = new Map<string, Intl.DateTimeFormat>();

function localTime(timeZone: string, at: number): { day: number; minutes: number } {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    day: WEEKDAYS.indexOf(parts.weekday ?? ""),
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

function toMinutes(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

export function isMarketOpen(hours: MarketHours, at: number): boolean {
  if (hours === "always") return true;
  const { day, minutes } = localTime(hours.timeZone, at);
  const open = toMinutes(hours.open);
  const close = toMinutes(hours.close);
  if (open <= close) return hours.days.includes(day) && minutes >= open && minutes < close;
  // Overnight session: the evening part belongs to today, the morning part to yesterday's session.
  if (minutes >= open) return hours.days.includes(day);
  return minutes < close && hours.days.includes((day + 6) % 7);
}

/** Checks a time zone name early, so a typo is a config error rather than a crash later. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** Today's date in India (YYYY-MM-DD): contracts expire and roll by the IST calendar. */
export function istDate(at: number): string {
  return new Date(at + (5 * 60 + 30) * 60 * 1000).toISOString().slice(0, 10);
}
