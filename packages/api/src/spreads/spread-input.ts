// What the spreads API accepts and answers (docs/formulas.md, docs/http-api.md "Spreads API"). The
// shapes only: the rules (name length, leg count, lots, the formula) are core's checkDefinition, so
// a backtest script and the server refuse the same definitions with the same words.
import { z } from "zod";
import { idempotencyKeySchema } from "../idempotency.ts";

/** Bounds on raw text before the checks read it; the real limits are core's and smaller. */
const MAX_TEXT = 100;
const MAX_FORMULA_TEXT = 50_000;

const legInput = z.strictObject({
  name: z.string({ error: "legs: each leg's name must be text" }).max(MAX_TEXT),
  instrument: z.string({ error: "legs: each leg's instrument must be text" }).max(MAX_TEXT),
  lots: z.number({ error: "legs: lots must be a number" }).optional(),
});

const definitionFields = {
  name: z.string({ error: "name must be text" }).max(MAX_TEXT, "name: at most 60 characters"),
  legs: z.array(legInput, { error: "legs must be a list" }).max(20, "legs: at most 8 legs"),
  formula: z.string({ error: "formula must be text" }).max(MAX_FORMULA_TEXT),
  /** Published to every user: admins only. */
  shared: z.boolean({ error: "shared must be true or false" }).optional(),
};

export const createSpreadInput = z.strictObject({
  ...definitionFields,
  idempotencyKey: idempotencyKeySchema,
});

/** A built-in's id is negative (GET only); a stored one's positive. */
export const spreadId = z.number({ error: "id must be a number" }).int("id must be an integer");

/** PUT replaces name, legs and formula; `shared` absent keeps what it was. */
export const updateSpreadInput = z.strictObject({ id: spreadId, ...definitionFields });

export const removeSpreadInput = z.strictObject({
  id: spreadId,
  /** Delete the alerts on it too; without it, a definition alerts use is refused (409). */
  confirm: z
    .union([z.boolean(), z.enum(["true", "false"]).transform((value) => value === "true")], {
      error: "confirm must be true or false",
    })
    .optional(),
});

const legView = z.object({
  name: z.string(),
  instrument: z.string(),
  lots: z.number().optional(),
});

/** A definition as POST and PUT answer it (docs/http-api.md, "Spreads API"). */
export const savedSpreadView = z.object({
  id: z.number(),
  symbol: z.string(),
  name: z.string(),
  legs: z.array(legView),
  formula: z.string(),
  shared: z.boolean(),
});

/** A definition as GET lists it: also whether it is built-in and whether the viewer may edit it. */
export const spreadView = savedSpreadView.extend({
  builtin: z.boolean(),
  editable: z.boolean(),
});

export type SpreadView = z.infer<typeof spreadView>;
