import { acquireLeadership, type Leadership } from "@spreadwatch/db";
import type { Config } from "../config/index.ts";
import { log } from "../log.ts";

/** What only the leader runs (composition.ts builds it): started on winning, stopped on losing. */
export interface LeaderWork {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Who leads. Embedded, this process leads at once; on PostgreSQL it leads while it holds the
 * advisory lock, stops the leader's work the moment the lock is lost, and contends again.
 * INSTANCE_ROLE=edge never contends.
 */
export class LeaderRole {
  private leadership: Leadership | undefined;
  private leading = false;
  private readonly stopped = new AbortController();
  private contending: Promise<void> | undefined;

  constructor(
    private readonly config: Config,
    private readonly work: LeaderWork,
  ) {}

  get isLeader(): boolean {
    return this.leading;
  }

  /**
   * Embedded: leads before returning, so a feed that cannot start fails the start. Otherwise
   * contends in the background and returns at once: every instance serves HTTP meanwhile.
   */
  async begin(): Promise<void> {
    if (this.config.role === "edge") return;
    if (this.config.databaseUrl === undefined) {
      this.leadership = await acquireLeadership(undefined, { onLost: () => {} });
      await this.lead();
      return;
    }
    this.contend();
  }

  /** Stops leader work and frees the lock; safe to call twice. */
  async end(): Promise<void> {
    this.stopped.abort();
    await this.contending?.catch(() => {});
    await this.stepDown();
    await this.leadership?.release();
    this.leadership = undefined;
  }

  private contend(): void {
    this.contending = (async () => {
      const url = this.config.databaseUrl;
      let waitingLogged = false;
      while (!this.stopped.signal.aborted) {
        try {
          this.leadership = await acquireLeadership(url, {
            signal: this.stopped.signal,
            onLost: (error) => void this.lost(error),
            onWaiting: () => {
              if (!waitingLogged) log.info("another instance leads; this one serves and waits");
              waitingLogged = true;
            },
          });
        } catch {
          return; // aborted by end()
        }
        try {
          await this.lead();
          return;
        } catch (error) {
          log.error({ err: error }, "could not start the leader's work; stepping down");
          await this.stepDown();
          await this.leadership?.release();
        }
      }
    })();
  }

  /**
   * The lock went with its connection: another instance may lead already, so stop at once.
   * Never rejects (it runs from the lock's callback, where a rejection would end the process):
   * a leader work that fails to stop is logged, and this instance contends again all the same.
   */
  private async lost(error: Error): Promise<void> {
    log.warn({ err: error }, "leadership lost; stopping the feeds, recorder, engine and sender");
    try {
      await this.stepDown();
    } catch (stopError) {
      log.error({ err: stopError }, "the leader work did not stop cleanly");
    }
    this.leadership = undefined;
    if (!this.stopped.signal.aborted) this.contend();
  }

  private async lead(): Promise<void> {
    this.leading = true;
    log.info({ instanceId: this.config.instanceId }, "this instance leads");
    await this.work.start();
  }

  private async stepDown(): Promise<void> {
    if (!this.leading) return;
    this.leading = false;
    await this.work.stop();
  }
}
