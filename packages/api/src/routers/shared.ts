import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { recordId } from "../shared-schemas.ts";

// The routers' schema bits that the services below them use too live in shared-schemas.ts.
export { recordId, type ShapeOf } from "../shared-schemas.ts";

export const byId = z.strictObject({ id: recordId });

/**
 * The input of a mutation that takes none: still read strictly, so a body with any field is a
 * 400 naming it rather than silently ignored (docs/design.md §3).
 */
export const noInput = z.strictObject({}).optional();

/** An id the caller may not see answers as one that does not exist. */
export function notFound(noun: "Alert" | "User"): TRPCError {
  return new TRPCError({ code: "NOT_FOUND", message: `${noun} not found` });
}

/**
 * docs/spec.md §7's answer to a write: `{ status: "success" }`, extended with what the write returns
 * (the alert, a message, …). Every such answer is built from this one schema.
 */
export const success = z.object({ status: z.literal("success") });
