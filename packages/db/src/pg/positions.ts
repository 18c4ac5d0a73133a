import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import {
  liveApplication,
  liveAppliedKey,
  lotsToClose,
  newPositionRow,
  storedPosition,
} from "../store/position-rows.ts";
import type { PositionStore } from "../store/store.ts";
import type {
  PositionCloseRequest,
  PositionFields,
  Realise,
  StoredPosition,
} from "../store/types.ts";
import type { PgDb } from "./connection.ts";
import { keyValues, positionCloses, positions } from "./schema.ts";

export function pgPositions(db: PgDb): PositionStore {
  const mine = (ownerId: number, id: number) =>
    and(eq(positions.id, id), eq(positions.ownerId, ownerId));
  const find = async (on: PgDb, ownerId: number, id: number, lock = false) => {
    const query = on.select().from(positions).where(mine(ownerId, id));
    const [row] = await (lock ? query.for("update") : query);
    return row && storedPosition(row);
  };
  const insert = async (
    on: PgDb,
    ownerId: number,
    fields: PositionFields,
    rolledFrom?: { campaignId: number; id: number },
  ) => {
    // campaign_id is NOT NULL: a fresh campaign starts at 0 and becomes the row's own id.
    const [row] = await on
      .insert(positions)
      .values({
        ...newPositionRow(ownerId, fields),
        campaignId: rolledFrom?.campaignId ?? 0,
        rolledFromId: rolledFrom?.id ?? null,
      })
      .returning();
    if (!row) throw new Error("the insert returned no row");
    if (rolledFrom) return storedPosition(row);
    const [own] = await on
      .update(positions)
      .set({ campaignId: row.id })
      .where(eq(positions.id, row.id))
      .returning();
    return storedPosition(own ?? row);
  };
  /** Inside a transaction: the row is locked (FOR UPDATE), so a second close on any instance waits. */
  const closeNow = async (
    tx: PgDb,
    ownerId: number,
    id: number,
    request: PositionCloseRequest,
    realise: Realise,
  ) => {
    const position = await find(tx, ownerId, id, true);
    if (!position) return { kind: "not_found" } as const;
    const lots = lotsToClose(position, request.lots);
    if (lots === null)
      return { kind: "too_many", open: position.status === "open" ? position.lots : 0 } as const;
    const left = position.lots - lots;
    const [close] = await tx
      .insert(positionCloses)
      .values({
        positionId: id,
        ownerId,
        lots,
        exit: request.exit,
        realisedInr: realise(position, lots, request.exit),
        closedAt: request.closedAt,
        reason: request.reason,
      })
      .returning();
    const [row] = await tx
      .update(positions)
      .set(left === 0 ? { lots: 0, status: "closed", closedAt: request.closedAt } : { lots: left })
      .where(eq(positions.id, id))
      .returning();
    if (!close || !row) throw new Error("the close wrote no row");
    return { kind: "closed", close, position: storedPosition(row), before: position } as const;
  };
  return {
    listOpen: async () =>
      (
        await db
          .select()
          .from(positions)
          .where(eq(positions.status, "open"))
          .orderBy(asc(positions.id))
      ).map(storedPosition),
    list: async (ownerId, status) =>
      (
        await db
          .select()
          .from(positions)
          .where(and(eq(positions.ownerId, ownerId), eq(positions.status, status)))
          .orderBy(asc(positions.id))
      ).map(storedPosition),
    find: (ownerId, id) => find(db, ownerId, id),
    create: (ownerId, fields, rolledFrom) =>
      db.transaction((tx) => insert(tx, ownerId, fields, rolledFrom)),
    open: (ownerId, fields, maxOpen) =>
      db.transaction(async (tx) => {
        // Opens of one owner queue here (on any instance), so two cannot both take the last place.
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(hashtextextended(${`positions:${ownerId}`}, 0))`,
        );
        const [row] = await tx
          .select({ n: count() })
          .from(positions)
          .where(and(eq(positions.ownerId, ownerId), eq(positions.status, "open")));
        return (row?.n ?? 0) >= maxOpen ? undefined : insert(tx, ownerId, fields);
      }),
    openLive: (ownerId, fields) =>
      db.transaction(async (tx) => {
        // One campaign's open queues here, so an old and a new leader cannot both insert.
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(hashtextextended(${`live:${fields.executionId}`}, 0))`,
        );
        const [existing] = await tx
          .select()
          .from(positions)
          .where(eq(positions.executionId, fields.executionId));
        return existing ? storedPosition(existing) : insert(tx, ownerId, fields);
      }),
    applyLive: (ownerId, positionId, fields, realise) =>
      db.transaction(async (tx) => {
        // One campaign's application queues here, so an old and a new leader cannot both apply.
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(hashtextextended(${`live:${fields.executionId}`}, 0))`,
        );
        const [opened] = await tx
          .select()
          .from(positions)
          .where(eq(positions.executionId, fields.executionId));
        if (opened) return storedPosition(opened);
        const key = liveAppliedKey(fields.executionId);
        const [applied] = await tx.select().from(keyValues).where(eq(keyValues.key, key));
        const id = applied ? (JSON.parse(applied.value) as number) : positionId;
        // Locked: a trader's close of the same position waits for this change, and the other way.
        const target = await find(tx, ownerId, id, true);
        if (applied) return target;
        const change = liveApplication(target, fields);
        if (change.kind === "open" || !target) return insert(tx, ownerId, fields);
        const mark = () =>
          tx
            .insert(keyValues)
            .values({ key, value: JSON.stringify(target.id), updatedAt: fields.openedAt });
        if (change.kind === "add") {
          await mark();
          const [row] = await tx
            .update(positions)
            .set(change.set)
            .where(eq(positions.id, target.id))
            .returning();
          if (!row) throw new Error("the live add wrote no row");
          return storedPosition(row);
        }
        const request = {
          lots: change.lots,
          exit: fields.entry,
          closedAt: fields.openedAt,
          reason: "close" as const,
        };
        const closed = await closeNow(tx, ownerId, target.id, request, realise);
        if (closed.kind !== "closed") throw new Error("the live close closed nothing");
        await mark();
        return change.rest > 0
          ? insert(tx, ownerId, { ...fields, lots: change.rest })
          : closed.position;
      }),
    update: async (ownerId, id, patch) => {
      const set = Object.fromEntries(
        Object.entries(patch).filter(([, value]) => value !== undefined),
      );
      if (Object.keys(set).length === 0) return find(db, ownerId, id);
      const [row] = await db.update(positions).set(set).where(mine(ownerId, id)).returning();
      return row && storedPosition(row);
    },
    delete: async (ownerId, id) =>
      (await db.delete(positions).where(mine(ownerId, id)).returning({ id: positions.id })).length >
      0,
    close: (ownerId, id, request, realise) =>
      db.transaction(async (tx) => {
        const result = await closeNow(tx, ownerId, id, request, realise);
        if (result.kind !== "closed") return result;
        return { kind: "closed", close: result.close, position: result.position } as const;
      }),
    roll: (ownerId, id, request, realise, next) =>
      db.transaction(async (tx) => {
        const result = await closeNow(tx, ownerId, id, { ...request, reason: "roll" }, realise);
        if (result.kind !== "closed") return result;
        const closed: StoredPosition = result.position;
        const position = await insert(tx, ownerId, next(result.before), {
          campaignId: closed.campaignId,
          id: closed.id,
        });
        return { kind: "rolled", close: result.close, closed, position } as const;
      }),
    closes: (ownerId, positionIds) =>
      db
        .select()
        .from(positionCloses)
        .where(
          and(
            eq(positionCloses.ownerId, ownerId),
            positionIds === undefined
              ? undefined
              : inArray(positionCloses.positionId, [...positionIds]),
          ),
        )
        .orderBy(asc(positionCloses.closedAt), asc(positionCloses.id)),
    countOpenOn: async (symbol) =>
      (
        await db
          .select({ n: count() })
          .from(positions)
          .where(and(eq(positions.spread, symbol), eq(positions.status, "open")))
      )[0]?.n ?? 0,
  };
}
