/**
 * Limits the server enforces too (docs/user-guide.md "Positions (paper)"); checked here to answer
 * at once.
 */
export const MAX_LOTS = 10_000;
export const MAX_NOTE = 500;

/** Whole lots 1–10,000, or the sentence saying what is wrong. */
export function checkLots(text: string, max = MAX_LOTS): number | string {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return lotsError(max);
  const lots = Number(trimmed);
  if (lots < 1 || lots > max) return lotsError(max);
  return lots;
}

function lotsError(max: number): string {
  return `Lots must be a whole number from 1 to ${max.toLocaleString("en-IN")}.`;
}

/**
 * The form's error once the lots are retyped: the lots sentence goes as soon as they read
 * right, so it never stands beside a valid value; any other sentence waits for the next try.
 */
export function errorAfterLots(
  error: string | undefined,
  lots: string,
  max = MAX_LOTS,
): string | undefined {
  if (error !== lotsError(max)) return error;
  return typeof checkLots(lots, max) === "number" ? undefined : error;
}

export function checkNote(note: string): string | undefined {
  return note.length > MAX_NOTE ? `A note is at most ${MAX_NOTE} characters.` : undefined;
}

/**
 * A typed price or ₹ figure: finite, and above 0 when `positive`; undefined when it is not one.
 * A leading U+2212 reads as "-": the figures the screen shows (and a pasted one) are written so.
 */
export function parsePrice(text: string, { positive }: { positive: boolean }): number | undefined {
  const trimmed = text
    .trim()
    .replaceAll(",", "")
    .replace(/^\u2212/, "-");
  if (!/^-?\d+(\.\d+)?$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  if (!Number.isFinite(value) || (positive && value <= 0)) return undefined;
  return value;
}
