/**
 * Reconnect delays (docs/design.md §3, docs/decisions.md "Reconnects"): never sooner than this …
 */
export const RECONNECT_MIN_MS = 500;
/** … nor later than this, once failures have doubled the window up to it. */
export const RECONNECT_MAX_MS = 5_000;

/**
 * Full jitter: uniform between the minimum and a window that doubles per failed attempt (1, 2, 4,
 * then 5 s). After a restart every tab was dropped at the same instant; a browser's own fixed
 * retry (about 3 s) would bring them all back in the same millisecond.
 */
export function reconnectDelayMs(failures: number, random = Math.random): number {
  const window = Math.min(RECONNECT_MAX_MS, 1_000 * 2 ** failures);
  return RECONNECT_MIN_MS + random() * (window - RECONNECT_MIN_MS);
}

type Listener = (event: Event) => void;

/**
 * An EventSource for httpSubscriptionLink that reconnects after a jittered delay instead of the
 * browser's fixed one. On any error the underlying stream is closed (so the browser does not
 * retry on its own) and a new one opens later; meanwhile it reports CONNECTING with an `error`
 * event, as a native EventSource does, so tRPC shows "connecting" rather than failing. Each new
 * connection starts with a fresh snapshot from the server.
 */
export class JitteredEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSED = 2;
  readyState = 0;
  private source: EventSource | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private readonly names = new Set<string>();

  constructor(
    readonly url: string,
    private readonly init?: EventSourceInit,
  ) {
    super();
    this.open();
  }

  get withCredentials(): boolean {
    return this.init?.withCredentials ?? false;
  }

  override addEventListener(type: string, listener: Listener | null, options?: unknown): void {
    // Named events (connected, ping, …) must be listened for on each underlying stream.
    if (!this.names.has(type) && type !== "error" && type !== "open") {
      this.names.add(type);
      this.source?.addEventListener(type, this.forward);
    }
    super.addEventListener(type, listener, options as AddEventListenerOptions);
  }

  close(): void {
    this.readyState = this.CLOSED;
    clearTimeout(this.timer);
    this.source?.close();
    this.source = undefined;
  }

  private readonly forward = (event: Event) => {
    // A message proves the connection works: the next failure starts from the short window.
    this.failures = 0;
    const copy =
      event instanceof MessageEvent
        ? new MessageEvent(event.type, { data: event.data, lastEventId: event.lastEventId })
        : new Event(event.type);
    this.dispatchEvent(copy);
  };

  private open(): void {
    const source = new EventSource(this.url, this.init);
    this.source = source;
    for (const name of this.names) source.addEventListener(name, this.forward);
    source.addEventListener("open", () => {
      this.readyState = this.OPEN;
      this.dispatchEvent(new Event("open"));
    });
    source.addEventListener("error", () => {
      if (this.readyState === this.CLOSED || this.source !== source) return;
      source.close();
      this.source = undefined;
      this.readyState = this.CONNECTING;
      this.dispatchEvent(new Event("error"));
      this.timer = setTimeout(() => this.open(), reconnectDelayMs(this.failures++));
    });
  }
}
