import { priceField } from "@spreadwatch/core";
import { z } from "zod";
import type { MarketStreamMessage } from "./delta.ts";

const PRICE_SECTIONS = ["cme", "mcx", "spot", "zerodha", "fx", "contracts"] as const;
type PriceSection = (typeof PRICE_SECTIONS)[number];

const names = (most: number) => z.array(z.string().min(1).max(64)).max(most).optional();

/**
 * What a stream client's screens show (docs/http-api.md, "Live stream"): whole price sections,
 * instruments by key (their price and contract entries), spread symbols. Absent: everything.
 * Given: exactly what it names, so a page of two instruments is sent nothing of the other 78.
 * `exceptKeys` instead: everything but those instruments (a dashboard's rows off screen), so
 * what is added to the market while the page is open still reaches it.
 */
export const streamSelectionInput = z
  .object({
    sections: z.array(z.enum(PRICE_SECTIONS)).max(PRICE_SECTIONS.length).optional(),
    keys: names(1000),
    symbols: names(2000),
    exceptKeys: names(1000),
  })
  .strict()
  .refine(
    (input) =>
      input.exceptKeys === undefined ||
      (input.sections === undefined && input.keys === undefined && input.symbols === undefined),
    {
      message:
        "exceptKeys leaves instruments out of everything: it cannot be combined with sections, keys or symbols",
    },
  );

export type StreamSelectionInput = z.infer<typeof streamSelectionInput>;

/** The names a selection may use: instruments in use, spread symbols the viewer may see. */
export interface SelectionNames {
  isKey(key: string): boolean;
  isSymbol(symbol: string): boolean;
}

/**
 * A sentence naming what is wrong with the input, or undefined when every name is known.
 * `exceptKeys` may name an instrument no longer in use: leaving out what is not there is already
 * done, and a page cannot learn of a removal it asked not to be sent.
 */
export function unknownNames(
  input: StreamSelectionInput,
  names: SelectionNames,
): string | undefined {
  const keys = (input.keys ?? []).filter((key) => !names.isKey(key));
  const symbols = (input.symbols ?? []).filter((symbol) => !names.isSymbol(symbol));
  const parts = [
    keys.length > 0 && `keys: no instrument in use is called ${quoted(keys)}`,
    symbols.length > 0 && `symbols: no spread you can see is called ${quoted(symbols)}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join("; ") : undefined;
}

const quoted = (names: string[]) => names.map((name) => JSON.stringify(name)).join(", ");

/**
 * One client's selection, compiled for filtering. `id` is the same for every client asking for
 * the same set in any order, so they share one encoded frame per version.
 */
export class StreamSelection {
  readonly id: string;
  private readonly sections: ReadonlySet<PriceSection>;
  /** Entry names in the price sections (NIFTY50's entry is `nifty50`) and contract keys. */
  private readonly entries: ReadonlySet<string>;
  private readonly keys: ReadonlySet<string>;
  private readonly symbols: ReadonlySet<string>;
  /** Everything but the `keys` (and their `entries`): the input named `exceptKeys`. */
  private readonly allBut: boolean;

  constructor(input: StreamSelectionInput) {
    const sorted = <T>(values: readonly T[] | undefined) => [...new Set(values ?? [])].sort();
    const sections = sorted(input.sections);
    this.allBut = input.exceptKeys !== undefined;
    const keys = sorted(this.allBut ? input.exceptKeys : input.keys);
    const symbols = sorted(input.symbols);
    this.id = JSON.stringify([sections, keys, symbols, this.allBut]);
    this.sections = new Set(sections);
    this.keys = new Set(keys);
    this.entries = new Set(keys.map(priceField));
    this.symbols = new Set(symbols);
  }

  /** The selection an `id` names (another process's, see stream-fanout.ts). */
  static fromId(id: string): StreamSelection {
    const [sections, keys, symbols, allBut] = JSON.parse(id) as [
      PriceSection[],
      string[],
      string[],
      boolean,
    ];
    return new StreamSelection(allBut ? { exceptKeys: keys } : { sections, keys, symbols });
  }

  /** The part of `message` this selection wants; undefined for a delta with nothing of it. */
  select(message: MarketStreamMessage): MarketStreamMessage | undefined {
    let any = false;
    const prices: Record<string, unknown> = {};
    for (const [section, entries] of Object.entries(message.prices)) {
      if (section === "timestamp" || entries === null || typeof entries !== "object") continue;
      const kept = this.pick(entries as Record<string, unknown>, (name) =>
        this.wantsPrice(section as PriceSection, name),
      );
      if (kept) {
        prices[section] = kept;
        any = true;
      } else if (message.kind === "snapshot" && section !== "contracts") prices[section] = {};
    }
    prices.timestamp = message.prices.timestamp;
    const calculations =
      this.pick(
        message.calculations as Record<string, unknown>,
        (name) => this.allBut || this.symbols.has(name),
      ) ?? {};
    if (Object.keys(calculations).length > 0) any = true;
    calculations.timestamp = message.calculations.timestamp;
    if (!any && message.kind === "delta") return undefined;
    return { ...message, prices, calculations } as MarketStreamMessage;
  }

  private wantsPrice(section: PriceSection, name: string): boolean {
    if (this.sections.has(section)) return true;
    const named = section === "contracts" ? this.keys.has(name) : this.entries.has(name);
    return named !== this.allBut;
  }

  private pick(
    entries: Record<string, unknown>,
    wants: (name: string) => boolean,
  ): Record<string, unknown> | undefined {
    let kept: Record<string, unknown> | undefined;
    for (const name in entries) {
      if (name === "timestamp" || !wants(name)) continue;
      kept ??= {};
      kept[name] = entries[name];
    }
    return kept;
  }
}
