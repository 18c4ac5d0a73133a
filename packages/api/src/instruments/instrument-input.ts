import {
  CURRENCIES,
  EXCHANGES,
  type InstrumentSpec,
  isInstrumentKey,
  MONTH_SELECTORS,
  PROVIDER_KINDS,
  parseInstrumentKey,
  shippedInstrument,
} from "@spreadwatch/core";
import { z } from "zod";

// What an admin sends to put an instrument in use (docs/user-guide.md "Instruments"). Messages say
// what is wrong; the REST and tRPC errors put the field's name before them ("lotUnits: must be …").

export const instrumentKey = z.string({ error: "key is required" }).trim().refine(isInstrumentKey, {
  error:
    "key must be like GOLD, GOLD@next or ZINC: capital letters, digits, . _ - (up to 32), then @next or @far for a later month",
});

const text = (max: number) =>
  z
    .string({ error: "must be text" })
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`);

const positive = z
  .number({ error: "must be a positive number" })
  .positive("must be a positive number")
  .max(1e9, "must be at most 1,000,000,000");

/** Kite tradingsymbols ("NIFTY 50", GOLD26FEBFUT), Yahoo symbols (GC=F, ^NSEI, GCG27.CMX), JSON paths. */
const SYMBOL = /^[A-Za-z0-9 ._=^&:/-]+$/;

const source = z.strictObject({
  provider: z.enum(PROVIDER_KINDS, { error: `must be one of ${PROVIDER_KINDS.join(", ")}` }),
  symbol: text(64).regex(SYMBOL, "may hold letters, digits, spaces and . _ = ^ & : / - only"),
});

/** Each field as given; which are required depends on whether the key is shipped. */
const given = z.strictObject({
  key: instrumentKey,
  exchange: z.enum(EXCHANGES, { error: `must be one of ${EXCHANGES.join(", ")}` }).optional(),
  name: text(64).optional(),
  unit: text(32).optional(),
  currency: z.enum(CURRENCIES, { error: `must be one of ${CURRENCIES.join(", ")}` }).optional(),
  lotUnits: positive.optional(),
  tick: positive.optional(),
  decimals: z
    .number({ error: "must be a whole number from 0 to 8" })
    .int("must be a whole number from 0 to 8")
    .min(0, "must be a whole number from 0 to 8")
    .max(8, "must be a whole number from 0 to 8")
    .optional(),
  month: z
    .enum(MONTH_SELECTORS, { error: `must be one of ${MONTH_SELECTORS.join(", ")}, or null` })
    .nullable()
    .optional(),
  source: source.nullable().optional(),
});

const REQUIRED = ["exchange", "name", "unit", "currency", "lotUnits", "tick", "decimals"] as const;

/**
 * The body of `POST /api/instruments` as the spec to store. A shipped key may come alone (its
 * catalogue entry fills the rest; fields given override it); any other key must carry every
 * field. A key's month suffix and its `month` must agree: GOLD@next is the next month.
 */
export const instrumentInput = given.transform((input, ctx): InstrumentSpec => {
  const shipped = shippedInstrument(input.key);
  const fields = Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined),
  ) as Partial<InstrumentSpec> & { source?: InstrumentSpec["source"] | null };
  const spec = { ...shipped, ...fields };
  for (const field of REQUIRED) {
    if (spec[field] === undefined) {
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `is required for ${input.key}, which is not in the shipped catalogue`,
      });
      return z.NEVER;
    }
  }
  const suffix = input.key.includes("@") ? parseInstrumentKey(input.key).month : undefined;
  const month = spec.month === undefined ? (suffix ?? null) : spec.month;
  if (suffix !== undefined && month !== suffix) {
    ctx.addIssue({
      code: "custom",
      path: ["month"],
      message: `must be ${suffix} for ${input.key}`,
    });
    return z.NEVER;
  }
  const { source: where, ...rest } = spec;
  return { ...(rest as InstrumentSpec), month, ...(where ? { source: where } : {}) };
});

export type InstrumentInput = z.input<typeof instrumentInput>;
