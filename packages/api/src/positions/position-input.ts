// What the positions procedures accept (docs/http-api.md "Positions API (paper)"); REST sends the
// same fields.
import { z } from "zod";
import { idempotencyKeySchema } from "../idempotency.ts";

export const MAX_POSITION_LOTS = 10_000;
export const MAX_NOTE_LENGTH = 500;
export const MAX_UNITS = 1_000_000;
/** Open positions per user: a desk's book, with room; the alert index and the list stay small. */
export const MAX_OPEN_POSITIONS = 500;

const lots = z
  .number({ error: "lots must be a whole number from 1 to 10,000" })
  .int("lots must be a whole number from 1 to 10,000")
  .min(1, "lots must be a whole number from 1 to 10,000")
  .max(MAX_POSITION_LOTS, "lots must be a whole number from 1 to 10,000");

/**
 * A price or rupee amount: finite (JSON's 1e999 parses to Infinity, which zod refuses) and
 * within ±1e12, far beyond any spread or P&L, so no product of it overflows to Infinity.
 */
const MAX_MAGNITUDE = 1e12;
const price = (field: string) =>
  z
    .number({ error: `${field} must be a finite number` })
    .min(-MAX_MAGNITUDE, `${field} must be between -1e12 and 1e12`)
    .max(MAX_MAGNITUDE, `${field} must be between -1e12 and 1e12`);
const inr = (field: string) => price(field).nullable().optional();

export const positionId = z
  .number({ error: "id must be a positive whole number" })
  .int("id must be a positive whole number")
  .positive("id must be a positive whole number");

const note = z
  .string({ error: "note must be text" })
  .max(MAX_NOTE_LENGTH, `note must be at most ${MAX_NOTE_LENGTH} characters`);

/** A target below the stop would fire both at once. */
function targetAboveStop(value: { targetInr?: number | null; stopInr?: number | null }) {
  const { targetInr, stopInr } = value;
  return targetInr == null || stopInr == null || targetInr > stopInr;
}
const TARGET_ABOVE_STOP = {
  message: "targetInr must be above stopInr",
  path: ["targetInr"],
};

const spreadSymbol = z
  .string({ error: "spread must be a spread's symbol, e.g. GC or SP7" })
  .trim()
  .min(1, "spread must be a spread's symbol, e.g. GC or SP7")
  .max(40, "spread must be a spread's symbol, e.g. GC or SP7");
const side = z.enum(["BUY", "SELL"], { error: 'side must be "BUY" or "SELL"' });

/** Each leg's fill price by leg name. */
const legFills = z.record(
  z.string(),
  price("legs").positive("legs: each leg's price must be above 0"),
);

export const openPositionInput = z
  .strictObject({
    spread: spreadSymbol,
    side,
    lots,
    /** Typed entry value; without it (and without legs) the live executable value. */
    entry: price("entry").optional(),
    /** Each leg's fill price by leg name; the entry is the formula at them. */
    legs: legFills.optional(),
    units: price("units")
      .positive("units must be above 0")
      .max(MAX_UNITS, `units must be at most ${MAX_UNITS}`)
      .optional(),
    note: note.optional(),
    targetInr: inr("targetInr"),
    stopInr: inr("stopInr"),
    /** When the trade was made (epoch ms); now when absent. */
    openedAt: z
      .number({ error: "openedAt must be epoch milliseconds" })
      .int()
      .positive()
      .optional(),
    idempotencyKey: idempotencyKeySchema,
  })
  .refine((v) => v.entry === undefined || v.legs === undefined, {
    message: "Give either entry or legs, not both",
    path: ["entry"],
  })
  .refine(targetAboveStop, TARGET_ABOVE_STOP);

/** The Open form's preview: what these lots would block and cost at the live value. */
export const previewPositionInput = z.strictObject({ spread: spreadSymbol, side, lots });

export const listPositionsInput = z
  .strictObject({
    status: z.enum(["open", "closed"], { error: 'status must be "open" or "closed"' }),
  })
  .partial()
  .optional();

export const patchPositionInput = z.strictObject({
  id: positionId,
  note: note.optional(),
  targetInr: inr("targetInr"),
  stopInr: inr("stopInr"),
});

export const closePositionInput = z.strictObject({
  id: positionId,
  /** All open lots when absent. */
  lots: lots.optional(),
  /** Typed exit value; the live executable exit when absent. */
  price: price("price").optional(),
  idempotencyKey: idempotencyKeySchema,
});

export const rollPositionInput = z
  .strictObject({
    id: positionId,
    /** Typed exit of the old contract; live when absent. */
    exit: price("exit").optional(),
    /** Typed entry on the next contract; live when absent (and without legs). */
    entry: price("entry").optional(),
    /** Each leg's fill on the next contract by leg name; the entry is the formula at them. */
    legs: legFills.optional(),
    idempotencyKey: idempotencyKeySchema,
  })
  .refine((v) => v.entry === undefined || v.legs === undefined, {
    message: "Give either entry or legs, not both",
    path: ["entry"],
  });

export const positionIdInput = z.strictObject({ id: positionId });

export type OpenPositionInput = z.infer<typeof openPositionInput>;
export type PatchPositionInput = z.infer<typeof patchPositionInput>;
export type ClosePositionInput = z.infer<typeof closePositionInput>;
export type RollPositionInput = z.infer<typeof rollPositionInput>;
