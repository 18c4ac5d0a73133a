export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  random?: () => number;
}

/**
 * Exponential backoff with jitter: the n-th wait is drawn from [½, 1] × min(max, initial × 2ⁿ),
 * so many clients that failed together do not come back together.
 */
export class Backoff {
  private attempt = 0;
  private readonly random: () => number;

  constructor(private readonly options: BackoffOptions) {
    this.random = options.random ?? Math.random;
  }

  next(): number {
    const ceiling = Math.min(this.options.maxMs, this.options.initialMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
  }

  reset(): void {
    this.attempt = 0;
  }

  get attempts(): number {
    return this.attempt;
  }
}
