/**
 * SQLite has one connection per process, so while an idempotent create awaits its callback
 * inside BEGIN IMMEDIATE, any other call would run inside that transaction (and be rolled back
 * with it). Every call waits at the gate until no such transaction is open.
 */
export class Gate {
  private held: Promise<void> | undefined;

  async pass<T>(work: () => T): Promise<T> {
    while (this.held) await this.held;
    return work();
  }

  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.held) await this.held;
    let release = () => {};
    this.held = new Promise((resolve) => {
      release = resolve;
    });
    try {
      return await work();
    } finally {
      this.held = undefined;
      release();
    }
  }
}
