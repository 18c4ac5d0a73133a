/** A non-2xx answer; `retryAfterMs` from a 429's or 503's Retry-After header. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

const MAX_RETRY_AFTER_MS = 10 * 60 * 1000;

export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : undefined;
}

export interface FetchOptions {
  headers?: Record<string, string>;
  /** The outbound policy's attempt signal: it carries the timeout and the shutdown. */
  signal: AbortSignal;
}

/** GET; throws HttpError for a non-2xx status and a plain Error for anything else. */
export async function httpGet(url: string, options: FetchOptions): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { headers: options.headers ?? {}, signal: options.signal });
  } catch (error) {
    throw new Error("request failed", { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    const retryAfter = parseRetryAfter(response.headers.get("retry-after"), Date.now());
    const hint = response.status === 429 ? " (rate limited)" : "";
    throw new HttpError(response.status, `HTTP ${response.status}${hint}`, retryAfter);
  }
  return response;
}

export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`response is not JSON (${text.length} bytes, starts "${text.slice(0, 40)}")`);
  }
}
