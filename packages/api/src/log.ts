import pino, { type Logger } from "pino";
import pretty from "pino-pretty";

/**
 * The server's one logger: JSON lines in production (for a log shipper), readable lines when a
 * person watches a terminal. LOG_LEVEL overrides; tests default to warnings only.
 */
function createLogger(): Logger {
  const level = process.env.LOG_LEVEL ?? (process.env.VITEST ? "warn" : "info");
  if (process.stdout.isTTY) {
    return pino({ level }, pretty({ colorize: true, sync: true, ignore: "pid,hostname" }));
  }
  return pino({ level, base: undefined });
}

export const log: Logger = createLogger();

const lastLoggedAt = new Map<string, { at: number; suppressed: number }>();

/**
 * Logs a warning at most once per `intervalMs` for the same `key`, so a client repeating a bad
 * request (a tampered cookie on every poll) or a flapping feed cannot flood the log. The next
 * line says how many were held back.
 */
export function warnEvery(
  key: string,
  intervalMs: number,
  fields: Record<string, unknown>,
  message: string,
  now = Date.now(),
): boolean {
  const last = lastLoggedAt.get(key);
  if (last && now - last.at < intervalMs) {
    last.suppressed++;
    return false;
  }
  const suppressed = last?.suppressed ?? 0;
  lastLoggedAt.set(key, { at: now, suppressed: 0 });
  // Bounded: keys are a fixed set of call sites, but drop all if something keys by user input.
  if (lastLoggedAt.size > 10_000) lastLoggedAt.clear();
  log.warn(suppressed > 0 ? { ...fields, suppressed } : fields, message);
  return true;
}
