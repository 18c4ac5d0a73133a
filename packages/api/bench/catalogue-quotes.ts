import {
  BUILT_IN_KEYS,
  contractFor,
  type Duties,
  groupOfExchange,
  type InstrumentSpec,
  isBookSource,
  parseInstrumentKey,
  type Quote,
  SHIPPED_INSTRUMENTS,
  type SpreadDefinition,
} from "@spreadwatch/core";
import type { Store, StoredInstrument } from "@spreadwatch/db";
import { seededRandom } from "../src/feeds/simulator/random.ts";
import { InstrumentCatalogue } from "../src/instruments/catalogue.ts";
import { builtInDefinitions } from "../src/spreads/built-ins.ts";
import { SpreadRegistry } from "../src/spreads/registry.ts";
import { makeQuotes } from "./quote-mix.ts";

/** Exchanges the generated custom instruments spread over (books on futures, prices elsewhere). */
const CUSTOM_EXCHANGES = ["MCX", "COMEX", "NYMEX", "CME", "CBOT", "NSE", "SPOT", "FX"] as const;

/**
 * `count` instruments in use, as a server with a full catalogue has them: every shipped
 * instrument (the fifteen built-in keys among them), then custom keys (CUSTOM001, …) an admin
 * could add, spread over the exchanges.
 */
export function catalogueInUse(count: number): InstrumentSpec[] {
  const specs = SHIPPED_INSTRUMENTS.slice(0, count);
  for (let i = 1; specs.length < count; i++) {
    const exchange = CUSTOM_EXCHANGES[i % CUSTOM_EXCHANGES.length] ?? "MCX";
    const future = groupOfExchange(exchange) === "mcx" || groupOfExchange(exchange) === "cme";
    specs.push({
      key: `CUSTOM${String(i).padStart(3, "0")}`,
      exchange,
      name: `Custom ${i}`,
      unit: "points",
      currency: exchange === "MCX" || exchange === "NSE" ? "INR" : "USD",
      lotUnits: 1,
      tick: 0.01,
      decimals: 2,
      month: future ? "near" : null,
    });
  }
  return specs;
}

/**
 * The server's own catalogue (composition.ts asks it for every quote the hub takes) with `specs`
 * in use: the fifteen built-in keys and the others as the store would hold them.
 */
export async function catalogueOf(specs: readonly InstrumentSpec[]): Promise<InstrumentCatalogue> {
  const builtIn = new Set<string>(BUILT_IN_KEYS);
  const rows: StoredInstrument[] = specs
    .filter((s) => !builtIn.has(s.key))
    .map((s) => ({ ...s, createdAt: 0, createdBy: null }));
  const store = { instruments: { list: async () => rows } } as unknown as Store;
  const catalogue = new InstrumentCatalogue(store);
  await catalogue.reload();
  if (catalogue.size !== specs.length)
    throw new Error(`${catalogue.size} in use, not ${specs.length}`);
  return catalogue;
}

/**
 * `total` quotes of the given instruments in the simulator's rhythm (50 ms steps, each
 * instrument quoting on a step with a 20 % chance): the fifteen built-in keys from the real
 * simulator model (so the ten spreads are recomputed as live), every other instrument a random
 * walk around its own level, futures naming their contract and expiry as a feed does.
 */
export function makeCatalogueQuotes(
  specs: readonly InstrumentSpec[],
  total: number,
  start: number,
  seed: number,
): Quote[] {
  const random = seededRandom(seed);
  const builtInKeys = new Set<string>(BUILT_IN_KEYS);
  const others = specs.filter((s) => !builtInKeys.has(s.key));
  // The fifteen's quotes per step match the simulator's; enough minutes of them to cover `total`.
  const stepsNeeded = Math.ceil(total / (specs.length * 0.2)) + 10;
  const builtIn = makeQuotes(Math.ceil((stepsNeeded * 50) / 60_000) + 1, start, seed);
  const day = new Date(start + 5.5 * 3_600_000).toISOString().slice(0, 10);
  const walkers = others.map((spec) => {
    const source = groupOfExchange(spec.exchange);
    const { root, month } = parseInstrumentKey(spec.key);
    const style = source === "mcx" ? "mcx" : "cme";
    const contract = spec.month ? contractFor(root, month, day, 3, style) : undefined;
    const named = contract
      ? { contract: contract.symbol, expiry: contract.expiry }
      : spec.month
        ? { contract: `${spec.key}26DECFUT`, expiry: "2026-12-31" }
        : {};
    return { spec, source, level: 100 + random() * 10_000, named };
  });
  const quotes: Quote[] = [];
  let b = 0;
  const first = builtIn[0]?.ts ?? start;
  for (let step = 0; quotes.length < total; step++) {
    const ts = first + step * 50;
    // Built-in quotes of this step, in the simulator's own order.
    while (b < builtIn.length && (builtIn[b]?.ts ?? Number.POSITIVE_INFINITY) <= ts) {
      quotes.push(builtIn[b++] as Quote);
    }
    for (const w of walkers) {
      if (step > 0 && random() >= 0.2) continue;
      w.level *= 1 + (random() - 0.5) * 0.0004;
      const price = Math.round(w.level * 100) / 100;
      quotes.push(
        isBookSource(w.source)
          ? {
              source: w.source,
              key: w.spec.key,
              bid: price - 0.05,
              ask: price + 0.05,
              ts,
              ...w.named,
            }
          : { source: w.source, key: w.spec.key, price, ts },
      );
    }
  }
  return quotes.slice(0, total);
}

/**
 * The spread registry as composition.ts builds it: the built-ins and `stored`, over the
 * catalogue's instruments in use; throws unless every definition checks.
 */
export async function registryOf(
  duties: Duties,
  catalogue: InstrumentCatalogue,
  stored: readonly SpreadDefinition[],
): Promise<SpreadRegistry> {
  const spreads = new SpreadRegistry({
    builtIns: builtInDefinitions(duties),
    load: async () => [...stored],
    knows: (key) => catalogue.inUse().some((spec) => spec.key === key),
  });
  await spreads.reload();
  const broken = spreads.all().filter((s) => !s.checked);
  if (broken.length > 0) throw new Error(`${broken.length} definitions do not check`);
  return spreads;
}
