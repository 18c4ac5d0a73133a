import type { OutboxBacklog } from "@spreadwatch/db";
import { Gauge, type Registry } from "prom-client";
import { warnEvery } from "../log.ts";
import { OUTBOX_CHANNELS } from "./delivery-counts.ts";

/**
 * The outbox's backlog, shared by every instance (it is in the database). The registry collects
 * its metrics concurrently, so both gauges join one read per scrape; a database that cannot
 * answer leaves them empty for that scrape rather than failing the whole page.
 */
export function outboxGauges(
  registry: Registry,
  read: () => Promise<OutboxBacklog[]>,
  now: () => number,
): void {
  let reading: Promise<Map<string, OutboxBacklog> | undefined> | undefined;
  const backlog = () => {
    reading ??= read()
      .then((rows) => new Map(rows.map((row) => [row.channel, row])))
      .catch((error: unknown) => {
        warnEvery("metrics-outbox", 60_000, { err: error }, "metrics: could not read the outbox");
        return undefined;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  const perChannel = (value: (row: OutboxBacklog | undefined) => number) =>
    async function (this: Gauge<"channel">) {
      const rows = await backlog();
      this.reset();
      if (rows === undefined) return;
      for (const channel of OUTBOX_CHANNELS) this.set({ channel }, value(rows.get(channel)));
    };
  new Gauge({
    name: "spreadwatch_outbox_pending",
    help: "Outbox messages neither delivered nor given up yet, by channel.",
    labelNames: ["channel"],
    registers: [registry],
    collect: perChannel((row) => row?.pending ?? 0),
  });
  new Gauge({
    name: "spreadwatch_outbox_oldest_age_seconds",
    help: "Age of the oldest message still in the outbox, by channel (0 when none waits).",
    labelNames: ["channel"],
    registers: [registry],
    collect: perChannel((row) =>
      row?.oldestCreatedAt == null ? 0 : Math.max(0, now() - row.oldestCreatedAt) / 1000,
    ),
  });
}
