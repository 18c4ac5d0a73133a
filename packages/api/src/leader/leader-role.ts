import { acquireLeadership, type Leadership } from "@spreadwatch/db";
import type { Config } from "../config.ts";
import type { Feed } from "../feeds/feed.ts";
import { backfillIfEmpty } from "../history/backfill.ts";
import { log } from "../log.ts";
import { type ChannelDelivery, OutboxSender, OutboxSenders } from "../outbox/outbox-sender.ts";
import { dutiesFrom, type Services } from "../services.ts";
import { TelegramDelivery } from "../telegram/telegram-delivery.ts";
import { WebhookDelivery } from "../webhooks/webhook-delivery.ts";

/** Who claims outbox rows; one process on its own file keeps one name across restarts. */
const EMBEDDED_INSTANCE_ID = "embedded";

/**
 * The work only one instance may do (DESIGN §9): the feeds (publishing each quote on the bus),
 * the history recorder, the alert engine and the outbox senders (Telegram, webhooks). Embedded, this process leads
 * at once; on PostgreSQL it leads while it holds the advisory lock, stops all of it the moment
 * the lock is lost, and contends again. INSTANCE_ROLE=edge never contends.
 */
export class LeaderRole {
  private leadership: Leadership | undefined;
  private leading = false;
  private readonly stopped = new AbortController();
  private contending: Promise<void> | undefined;

  constructor(
    private readonly config: Config,
    private readonly services: Services,
    private readonly feed: Feed,
    private readonly notice: (text: string) => void,
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

  /** The lock went with its connection: another instance may lead already, so stop at once. */
  private async lost(error: Error): Promise<void> {
    log.warn({ err: error }, "leadership lost; stopping the feeds, recorder, engine and sender");
    await this.stepDown();
    this.leadership = undefined;
    if (!this.stopped.signal.aborted) this.contend();
  }

  private async lead(): Promise<void> {
    const { services, config, feed } = this;
    this.leading = true;
    log.info({ instanceId: config.instanceId }, "this instance leads");
    await backfillIfEmpty(
      services.store,
      feed.history?.bind(feed),
      dutiesFrom(config),
      this.notice,
    );
    await services.recorder.start();
    // After the backfill, so a first start's statistics include the history it just made.
    await services.stats.start();
    await services.alertEngine.start();
    const id = config.databaseUrl ? config.instanceId : EMBEDDED_INSTANCE_ID;
    const channels: ChannelDelivery[] = [new WebhookDelivery(services.store, services.webhooks)];
    if (services.notifier) channels.push(new TelegramDelivery(services.notifier));
    services.sender = new OutboxSenders(
      channels.map(
        (channel) => new OutboxSender(services.store, services.deliveries.counting(channel), id),
      ),
    );
    services.sender.start();
    await feed.start((quote) => services.bus.publish("quote", quote));
  }

  private async stepDown(): Promise<void> {
    if (!this.leading) return;
    this.leading = false;
    const { services } = this;
    await this.feed.stop();
    await services.alertEngine.stop();
    await services.recorder.stop();
    await services.sender?.stop();
  }
}
