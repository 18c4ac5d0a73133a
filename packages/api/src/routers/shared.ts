import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { ErrorWithFields } from "../errors.ts";
import { PositionError } from "../positions/position-error.ts";
import { recordId } from "../shared-schemas.ts";

// The routers' schema bits that the services below them use too live in shared-schemas.ts.
export { recordId, type ShapeOf } from "../shared-schemas.ts";

export const byId = z.strictObject({ id: recordId });

const REFUSAL_CODES = {
  not_found: "NOT_FOUND",
  conflict: "CONFLICT",
  bad_request: "BAD_REQUEST",
} as const;

/**
 * A service's refusal (PositionError: positions, backtests, live orders) as the tRPC error REST
 * answers 404, 409 or 400 from, with the same sentence and its extra fields.
 */
export function refusalAsTrpcError(error: unknown): unknown {
  if (!(error instanceof PositionError)) return error;
  return new TRPCError({
    code: REFUSAL_CODES[error.kind],
    message: error.message,
    cause: new ErrorWithFields(error.message, error.fields),
  });
}

/** Runs `work`, turning a service's refusal into its tRPC error. */
export async function withRefusals<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw refusalAsTrpcError(error);
  }
}

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
