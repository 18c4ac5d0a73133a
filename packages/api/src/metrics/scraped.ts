import { Counter, Gauge, type Registry } from "prom-client";

export type Labels<L extends string> = Partial<Record<L, string>>;

/** A counter whose values are counted elsewhere, as plain numbers, and copied in on scrape. */
export function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Iterable<[Labels<L>, number]>,
): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}

/** A gauge read on scrape; series missing from `read` are not reported. */
export function gauge<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Iterable<[Labels<L>, number]>,
): void {
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.set(labels, value);
    },
  });
}
