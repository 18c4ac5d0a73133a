/**
 * docs/spec.md §5: the threshold field accepts only an optional minus, digits and one decimal point.
 * Whatever arrives (a keystroke, a paste, autofill) is reduced to those characters: a minus
 * only in front, the first point only.
 */
export function sanitizeThreshold(text: string): string {
  let out = "";
  let point = false;
  for (const char of text) {
    if (char >= "0" && char <= "9") out += char;
    else if (char === "-" && out === "") out = "-";
    else if (char === "." && !point) {
      point = true;
      out += ".";
    }
  }
  return out;
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;

/** The threshold a field holds, or undefined when it is not a number ("", "-", "."). */
export function parseThreshold(text: string): number | undefined {
  const trimmed = text.trim();
  if (!NUMBER.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

export const INVALID_THRESHOLD = "Please enter a valid number for the threshold.";
