/** Reads `a.b.0.c` from parsed JSON; undefined where any step is missing. */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const step of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    if (!Object.hasOwn(current, step)) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

/** A number, or a numeric string such as "26,080.55"; undefined for anything else or empty. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.replace(/[,\s]/g, "");
  if (text === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * A time as epoch milliseconds: numbers (or numeric strings) below 10¹¹ are taken as epoch
 * seconds, larger ones as milliseconds; other strings must be ISO-8601.
 */
export function toTimestamp(value: unknown): number | undefined {
  const n = toNumber(value);
  if (n !== undefined) return n > 0 ? (n < 1e11 ? n * 1000 : n) : undefined;
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
