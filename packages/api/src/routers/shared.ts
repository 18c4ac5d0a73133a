import { TRPCError } from "@trpc/server";
import { z } from "zod";

/** A stored row's id: `:id` of a REST path or the `id` field of a tRPC input. */
export const recordId = z
  .number({ error: "id must be a number" })
  .int()
  .positive("id must be a positive integer");

export const byId = z.object({ id: recordId });

/** An id the caller may not see answers as one that does not exist. */
export function notFound(noun: "Alert" | "User"): TRPCError {
  return new TRPCError({ code: "NOT_FOUND", message: `${noun} not found` });
}
