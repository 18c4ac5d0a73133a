/** Limits the server enforces too (README "Positions (paper)"); checked here to answer at once. */
export const MAX_LOTS = 10_000;
export const MAX_NOTE = 500;

/** Whole lots 1–10,000, or the sentence saying what is wrong. */
export function checkLots(text: string, max = MAX_LOTS): number | string {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed))
    return `Lots must be a whole number from 1 to ${max.toLocaleString("en-IN")}.`;
  const lots = Number(trimmed);
  if (lots < 1 || lots > max)
    return `Lots must be a whole number from 1 to ${max.toLocaleString("en-IN")}.`;
  return lots;
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
