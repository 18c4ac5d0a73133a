/** How long after the hub's held-back entries are due the stream publishes them itself. */
const HELD_BACK_GRACE_MS = 60;

/**
 * The hub holds back a definition's newest value until it is due (definitionEveryMs): a stream
 * then publishes it, though no quote may come by then. One timer at a time, a little after it is
 * due, so a quote's version carries the values when one comes, with no message of their own.
 */
export class HeldBackTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly hub: { readonly heldBackUntil: number | undefined },
    private readonly publish: () => void,
  ) {}

  /** After a version is published: a timer for what the hub still holds back, if none is set. */
  schedule(): void {
    const due = this.hub.heldBackUntil;
    if (due === undefined || this.timer !== undefined) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.publish();
      },
      Math.max(0, due - performance.now()) + HELD_BACK_GRACE_MS,
    );
    this.timer.unref();
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
