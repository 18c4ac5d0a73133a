import { TRPCError } from "@trpc/server";
import { z } from "zod";

/** A stored row's id: `:id` of a REST path or the `id` field of a tRPC input. */
export const recordId = z
  .number({ error: "id must be a number" })
  .int()
  .positive("id must be a positive integer");

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

/**
 * The fields of T, each a schema of its type. An output schema drops what it does not name, so
 * one built from a type the api does not own (core's, the store's) `satisfies ShapeOf<T>`: a
 * field added to T and missing here then fails to compile instead of vanishing from the wire.
 */
export type ShapeOf<T> = { [K in keyof T]-?: z.ZodType<T[K]> };
