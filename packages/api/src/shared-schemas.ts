import { z } from "zod";

// Schema pieces the routers and the services under them (alerts/, stream/) share, below both.

/** A stored row's id: `:id` of a REST path or the `id` field of a tRPC input. */
export const recordId = z
  .number({ error: "id must be a number" })
  .int()
  .positive("id must be a positive integer");

/**
 * The fields of T, each a schema of its type. An output schema drops what it does not name, so
 * one built from a type the api does not own (core's, the store's) `satisfies ShapeOf<T>`: a
 * field added to T and missing here then fails to compile instead of vanishing from the wire.
 */
export type ShapeOf<T> = { [K in keyof T]-?: z.ZodType<T[K]> };
