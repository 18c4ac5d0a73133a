// The leader's work on live-order campaigns (docs/user-guide.md "Live orders"). Each cycle reads every open
// campaign from the store and, per trader's Kite account, the day's orderbook; folds what Kite
// says into each order by its tag; asks core's leg guard what to do; writes the campaign (new
// orders as "sending", before any is sent) and only then sends. So a restart — or a new leader —
// first finds by tag every order it may have sent, and sends again only what Kite never got.
import {
  type GuardOrder,
  type GuardState,
  guardStep,
  isLive,
  slippageTicks,
  TERMINAL_STATUSES,
} from "@spreadwatch/core";
import type { Store, StoredExecution } from "@spreadwatch/db";
import type { KiteSettings } from "../config/index.ts";
import type { Auth } from "../feeds/providers/kite/credentials.ts";
import { warnEvery } from "../log.ts";
import type { MarketHub } from "../market/hub.ts";
import type { KiteLinks } from "./kite-link.ts";
import {
  cancelOrder,
  KiteOrderError,
  type KiteOrderRow,
  listOrders,
  mergeKiteRow,
  type OrderLeg,
  placeOrder,
  placeRequest,
} from "./kite-orders.ts";
import type { LiveOrders } from "./live-orders.ts";
import { legAverages } from "./live-position.ts";
import { OrderLimitReached, type OrderRate } from "./order-rate.ts";
import { OrderUpdates } from "./order-updates.ts";
import { type KiteSessionReminders, REMINDER_CHECK_MS } from "./session-reminder.ts";
import { type CampaignDoc, executableFrom } from "./ticket.ts";

/** How often the leader reads each working account's orderbook. */
export const EXECUTION_POLL_MS = 100;
/**
 * How often the leader looks for campaigns while none is open. A campaign made or cancelled on
 * any instance wakes it at once ("executions.changed" on the bus); this is the net under a lost
 * message. Looking every 100 ms with nothing open was half of an idle server's CPU.
 */
export const EXECUTION_IDLE_POLL_MS = 1_000;
/** After a 429 the account sends nothing for this long. */
export const THROTTLE_BACKOFF_MS = 1_000;

export const cancelKey = (id: string) => `executions.cancel.${id}`;

export interface ExecutionEngineOptions {
  store: Store;
  hub: MarketHub;
  kite: KiteSettings;
  links: KiteLinks;
  liveOrders: LiveOrders;
  rate: OrderRate;
  pollMs?: number;
  /**
   * A naked leg left for the trader (the ticket chose "alert", the guard could not flatten, or
   * live orders were switched off mid-campaign): told before the campaign is written.
   */
  onAlert?: (row: StoredExecution, doc: CampaignDoc, text: string) => Promise<void>;
  /** A campaign settled: its hedged lots open the trader's live position (live-position.ts). */
  onSettled?: (row: StoredExecution, doc: CampaignDoc) => Promise<void>;
  now?: () => number;
  /** Traders with live work reminded of their Kite session's end; looked at once a minute. */
  reminders?: KiteSessionReminders;
}

interface Account {
  auth: Auth;
  /** The orderbook this cycle, or undefined when Kite could not be read. */
  book: KiteOrderRow[] | undefined;
  /**
   * The book is only the orders Kite's updates told since the last look: an order it lacks is
   * not missing, so nothing is sent again on its account.
   */
  partial?: boolean;
}

export class ExecutionEngine {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  /** The next cycle reads every account's orderbook (a poll, a new campaign, a cancel). */
  private lookAtBooks = true;
  /** The last look found no open campaign: the next poll waits EXECUTION_IDLE_POLL_MS. */
  private idle = false;
  /** Tags whose request is on the wire now: never looked up, never sent again meanwhile. */
  private readonly inFlight = new Set<string>();
  private readonly now: () => number;
  /** Fill seen → hedge sent, per hedge (the bench reads it). */
  readonly hedgeLatencies: number[] = [];
  /**
   * Per hedge sent on an order update: the update's arrival → the hedge's POST, wall and this
   * process's CPU time (the bench reads it; on a loaded machine the CPU time is the path's own).
   */
  readonly updatePaths: Array<{ wallMs: number; cpuMs: number }> = [];
  private updateArrived: { at: number; cpu: NodeJS.CpuUsage } | undefined;

  private readonly updates: OrderUpdates;
  private remindedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: ExecutionEngineOptions) {
    this.now = options.now ?? Date.now;
    this.updates = new OrderUpdates(
      options.kite,
      () => this.nudge(),
      () => this.wake(),
    );
  }

  /** Reconciles every open campaign with Kite's orderbook, then works them until `stop`. */
  async start(): Promise<void> {
    this.running = true;
    await this.cycle();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.updates.close();
    this.wake();
    await this.loop;
    this.loop = undefined;
  }

  /** A campaign was created or cancelled here: look now rather than at the next poll. */
  wake(): void {
    this.lookAtBooks = true;
    this.nudge();
  }

  /** An order update: act on what it says now, the orderbook is read at the next poll. */
  private nudge(): void {
    this.updateArrived ??= { at: performance.now(), cpu: process.cpuUsage() };
    this.woken = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      if (!this.woken) {
        const polled = await new Promise<boolean>((resolve) => {
          this.wakeUp = () => resolve(false);
          const pollMs = this.idle ? EXECUTION_IDLE_POLL_MS : EXECUTION_POLL_MS;
          setTimeout(() => resolve(true), this.options.pollMs ?? pollMs).unref();
        });
        if (polled) this.lookAtBooks = true;
      }
      this.woken = false;
      this.wakeUp = undefined;
      if (!this.running) break;
      this.remindNow();
      const books = this.lookAtBooks;
      this.lookAtBooks = false;
      try {
        await (books ? this.cycle() : this.updatesCycle());
      } catch (error) {
        warnEvery("executions-cycle", 60_000, { err: error }, "an execution cycle failed");
      }
    }
  }

  /** Not awaited: a reminder's writes never hold up a campaign's next look. */
  private remindNow(): void {
    const reminders = this.options.reminders;
    const now = this.now();
    if (!reminders || now - this.remindedAt < REMINDER_CHECK_MS) return;
    this.remindedAt = now;
    reminders.remind(now).catch((error) => {
      warnEvery("executions-reminders", 60_000, { err: error }, "could not remind of Kite's end");
    });
  }

  get sessionReminders(): KiteSessionReminders | undefined {
    return this.options.reminders;
  }

  /**
   * The campaigns Kite's order updates name, worked on what the updates say, without reading
   * the orderbook first: a fill's hedge goes out one SQLite write after the update arrives.
   */
  private async updatesCycle(): Promise<void> {
    const rows = this.updates.take();
    const arrived = this.updateArrived;
    this.updateArrived = undefined;
    if (rows.size === 0) return;
    const { store, liveOrders } = this.options;
    const tags = new Set<string>();
    for (const list of rows.values()) for (const row of list) if (row.tag) tags.add(row.tag);
    const open = (await store.executions.listOpen()).filter((row) =>
      (row.doc as CampaignDoc).state.orders.some((o) => tags.has(o.tag)),
    );
    if (open.length === 0) return;
    const globallyOn = await liveOrders.enabled();
    const accounts = new Map<number, Account | undefined>();
    for (const row of open) {
      if (accounts.has(row.ownerId)) continue;
      const auth = await this.auth(row.ownerId);
      accounts.set(
        row.ownerId,
        auth && { auth, book: rows.get(auth.accessToken) ?? [], partial: true },
      );
    }
    await Promise.all(
      open.map(async (row) => {
        const allowed = globallyOn && (await liveOrders.of(row.ownerId)).enabled;
        await this.work(row, accounts.get(row.ownerId), allowed, arrived);
      }),
    );
  }

  private async auth(ownerId: number): Promise<Auth | undefined> {
    const { kite, links } = this.options;
    const accessToken = await links.accessToken(ownerId, this.now());
    if (!accessToken || !kite.apiKey) return undefined;
    return { apiKey: kite.apiKey, accessToken };
  }

  /** One look at every open campaign. */
  async cycle(): Promise<void> {
    const { store, liveOrders } = this.options;
    // What updates told before this look is in the books it reads now.
    this.updates.take();
    const open = await store.executions.listOpen();
    this.idle = open.length === 0;
    const tokens = new Set<string>();
    if (open.length === 0) return this.updates.watch(tokens);
    this.updateArrived = undefined;
    const globallyOn = await liveOrders.enabled();
    const accounts = new Map<number, Account | undefined>();
    for (const row of open)
      if (!accounts.has(row.ownerId)) accounts.set(row.ownerId, await this.account(row.ownerId));
    for (const account of accounts.values()) if (account) tokens.add(account.auth.accessToken);
    // Kite's order updates for the accounts at work wake the next look (order-updates.ts).
    this.updates.watch(tokens);
    await Promise.all(
      open.map(async (row) => {
        const allowed = globallyOn && (await liveOrders.of(row.ownerId)).enabled;
        await this.work(row, accounts.get(row.ownerId), allowed);
      }),
    );
  }

  private async account(ownerId: number): Promise<Account | undefined> {
    const { kite } = this.options;
    const auth = await this.auth(ownerId);
    if (!auth) return undefined;
    if (this.options.rate.held(accountId(auth))) return { auth, book: undefined };
    try {
      const book = await listOrders(kite.apiRoot, auth);
      this.options.rate.observeBook(accountId(auth), book.length);
      return { auth, book };
    } catch (error) {
      if (error instanceof KiteOrderError && error.kind === "throttled")
        this.options.rate.backOff(accountId(auth), THROTTLE_BACKOFF_MS);
      warnEvery(`executions-book-${ownerId}`, 60_000, { err: error }, "could not read Kite orders");
      return { auth, book: undefined };
    }
  }

  private async work(
    row: StoredExecution,
    account: Account | undefined,
    allowed: boolean,
    arrived?: { at: number; cpu: NodeJS.CpuUsage },
  ) {
    const id = row.id;
    const doc = row.doc as CampaignDoc;
    const now = this.now();
    if (!account) {
      if (!doc.events.some((e) => e.text.startsWith("waiting")))
        this.event(doc, now, "waiting: the trader's Kite session has ended; link Kite again");
      if (!allowed) doc.state = { ...doc.state, stopping: "kill" };
      await this.save(id, doc);
      return;
    }
    // Nothing is decided on a campaign whose orders Kite could not be asked about.
    if (account.book === undefined) return;
    const absent = new Set<string>();
    const orders = doc.state.orders.map((order) => {
      if (this.inFlight.has(order.tag)) return order;
      const rows = account.book?.filter((r) => r.tag === order.tag) ?? [];
      const ids = new Set(rows.map((r) => r.order_id));
      if (ids.size > 1) this.event(doc, now, `Kite lists ${ids.size} orders tagged ${order.tag}`);
      const id =
        order.orderId !== null && ids.has(order.orderId) ? order.orderId : rows[0]?.order_id;
      // An order's updates in the order they came: merging never rewinds one (mergeKiteRow).
      const known = rows.filter((r) => r.order_id === id);
      if (known.length > 0) return known.reduce(mergeKiteRow, order);
      if (!account.partial && (order.state === "sending" || order.state === "unknown"))
        absent.add(order.tag);
      return order;
    });
    const filledBefore = sumFilled(doc.state.orders, "work");
    let state: GuardState = { ...doc.state, orders };
    const cancelled = (await this.options.store.keyValues.get<boolean>(cancelKey(id))) === true;
    if (!allowed) state = { ...state, stopping: "kill" };
    else if (cancelled && state.stopping === null) state = { ...state, stopping: "cancel" };
    const executable = executableFrom(this.options.hub.snapshot().prices, doc);
    const step = guardStep(id, doc.guard, state, now, executable);
    const alerts: string[] = [];
    for (const text of step.events) {
      this.event(doc, now, text);
      if (text.startsWith("alert:") || text.startsWith("live orders were switched off with"))
        alerts.push(text);
    }
    const cancelling = new Set(step.cancel);
    doc.state = {
      ...step.state,
      orders: [
        ...step.state.orders.map((o) => (cancelling.has(o.tag) ? { ...o, cancelSent: true } : o)),
        ...step.place,
      ],
    };
    const newFill = sumFilled(orders, "work") > filledBefore;
    for (const text of alerts)
      try {
        await this.options.onAlert?.(row, doc, text);
      } catch (error) {
        warnEvery(
          `executions-alert-${id}`,
          60_000,
          { err: error },
          "could not queue a naked-leg alert",
        );
      }
    if (TERMINAL_STATUSES.includes(doc.state.status) && this.options.onSettled)
      try {
        await this.options.onSettled(row, doc);
      } catch (error) {
        // Not settled until its position is stored: the next cycle settles it again.
        doc.state = { ...doc.state, status: row.status as GuardState["status"] };
        warnEvery(
          `executions-settle-${id}`,
          60_000,
          { err: error },
          "could not open a live position",
        );
      }
    // Written before anything is sent: a restart looks these tags up before sending them again.
    await this.save(id, doc);
    const toSend = doc.state.orders.filter(
      (o) =>
        o.state === "sending" &&
        !this.inFlight.has(o.tag) &&
        (step.place.includes(o) || absent.has(o.tag)),
    );
    if (toSend.length === 0 && cancelling.size === 0) return;
    const sentAt = this.now();
    await Promise.all([
      ...toSend.map((o) =>
        this.send(doc, o, account.auth, newFill ? now : undefined, sentAt, arrived),
      ),
      ...[...cancelling].map((tag) => this.cancel(doc, tag, account.auth)),
    ]);
    await this.save(id, doc);
  }

  private async send(
    doc: CampaignDoc,
    order: GuardOrder,
    auth: Auth,
    fillSeenAt: number | undefined,
    _sentAt: number,
    arrived?: { at: number; cpu: NodeJS.CpuUsage },
  ): Promise<void> {
    const { kite, rate } = this.options;
    const request = placeRequest(order, doc.legs[order.leg] as OrderLeg);
    this.inFlight.add(order.tag);
    const update = (patch: Partial<GuardOrder>) => {
      doc.state = {
        ...doc.state,
        orders: doc.state.orders.map((o) => (o.tag === order.tag ? { ...o, ...patch } : o)),
      };
    };
    try {
      let told = false;
      await rate.acquire(accountId(auth), (reason) => {
        if (!told) this.event(doc, this.now(), `${order.tag}: ${reason}`);
        told = true;
      });
      if (order.role === "hedge" && fillSeenAt !== undefined) {
        this.hedgeLatencies.push(this.now() - fillSeenAt);
        if (arrived) {
          const cpu = process.cpuUsage(arrived.cpu);
          this.updatePaths.push({
            wallMs: performance.now() - arrived.at,
            cpuMs: (cpu.user + cpu.system) / 1_000,
          });
        }
      }
      const orderId = await placeOrder(kite.apiRoot, auth, request);
      update({ orderId, state: "open" });
    } catch (error) {
      // Refused here before sending (Kite's day limit): nothing to look up, the guard decides.
      const kind =
        error instanceof KiteOrderError
          ? error.kind
          : error instanceof OrderLimitReached
            ? "refused"
            : "unknown";
      const message = (error as Error).message;
      if (kind === "refused") update({ state: "rejected", message });
      else if (kind === "throttled") rate.backOff(accountId(auth), THROTTLE_BACKOFF_MS);
      else update({ state: "unknown", message });
      this.event(doc, this.now(), `${order.tag}: ${message}`);
    } finally {
      this.inFlight.delete(order.tag);
    }
  }

  private async cancel(doc: CampaignDoc, tag: string, auth: Auth): Promise<void> {
    const order = doc.state.orders.find((o) => o.tag === tag);
    if (!order?.orderId) return;
    try {
      await this.options.rate.acquire(accountId(auth), undefined, "cancel");
      await cancelOrder(this.options.kite.apiRoot, auth, order.orderId);
    } catch (error) {
      // Filled or cancelled meanwhile (the book says so next cycle), or to be tried again.
      doc.state = {
        ...doc.state,
        orders: doc.state.orders.map((o) => (o.tag === tag ? { ...o, cancelSent: false } : o)),
      };
      this.event(doc, this.now(), `cancel ${tag}: ${(error as Error).message}`);
    }
  }

  private event(doc: CampaignDoc, at: number, text: string): void {
    doc.events.push({ at, text });
  }

  private async save(id: string, doc: CampaignDoc): Promise<void> {
    await this.options.store.executions.save(id, doc.state.status, doc, this.now());
  }
}

function accountId(auth: Auth): string {
  return auth.accessToken;
}

function sumFilled(orders: readonly GuardOrder[], role: GuardOrder["role"]): number {
  return orders.filter((o) => o.role === role).reduce((total, o) => total + o.filled, 0);
}

/** The campaign as the API shows it: orders, the spread it filled at, slippage, events. */
export function campaignView(
  row: StoredExecution,
  spreadValue: (prices: Record<string, number>) => number | undefined,
) {
  const doc = row.doc as CampaignDoc;
  const orders = doc.state.orders.map((o) => ({
    leg: o.leg,
    role: o.role,
    orderId: o.orderId,
    tag: o.tag,
    side: o.side,
    quantity: o.quantity,
    price: o.price,
    status: o.state,
    filled: o.filled,
    averagePrice: o.averagePrice,
  }));
  const legPrices = legAverages(doc);
  const complete = Object.keys(doc.legs).every((leg) => legPrices[leg] !== undefined);
  const spreadFilled = complete ? (spreadValue(legPrices) ?? null) : null;
  return {
    id: row.id,
    status: row.status,
    spread: row.spread,
    side: doc.ticket.side,
    lots: doc.ticket.lots,
    target: doc.target,
    orders,
    spreadFilled,
    slippageTicks:
      spreadFilled === null
        ? null
        : slippageTicks(doc.target, spreadFilled, doc.ticket.side, doc.guard.work.tick),
    tripped: doc.state.tripped,
    live: doc.state.orders.some(isLive),
    events: doc.events,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
