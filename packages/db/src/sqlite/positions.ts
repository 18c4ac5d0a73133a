import { and, asc, count, eq, inArray } from "drizzle-orm";
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
import { keyValues, positionCloses, positions } from "./schema.ts";
import type { Sqlite } from "./store.ts";

export function sqlitePositions({ db, run }: Sqlite): PositionStore {
  const mine = (ownerId: number, id: number) =>
    and(eq(positions.id, id), eq(positions.ownerId, ownerId));
  const find = (ownerId: number, id: number) => {
    const row = db.select().from(positions).where(mine(ownerId, id)).get();
    return row && storedPosition(row);
  };
  const insert = (
    ownerId: number,
    fields: PositionFields,
    rolledFrom?: { campaignId: number; id: number },
  ) => {
    // campaign_id is NOT NULL: a fresh campaign starts at 0 and becomes the row's own id.
    const row = db
      .insert(positions)
      .values({
        ...newPositionRow(ownerId, fields),
        campaignId: rolledFrom?.campaignId ?? 0,
        rolledFromId: rolledFrom?.id ?? null,
      })
      .returning()
      .get();
    if (rolledFrom) return storedPosition(row);
    const own = db
      .update(positions)
      .set({ campaignId: row.id })
      .where(eq(positions.id, row.id))
      .returning()
      .get();
    return storedPosition(own ?? row);
  };
  // One writer at a time (better-sqlite3 is synchronous): read, check and write cannot interleave.
  const closeNow = (
    ownerId: number,
    id: number,
    request: PositionCloseRequest,
    realise: Realise,
  ) => {
    const position = find(ownerId, id);
    if (!position) return { kind: "not_found" } as const;
    const lots = lotsToClose(position, request.lots);
    if (lots === null)
      return { kind: "too_many", open: position.status === "open" ? position.lots : 0 } as const;
    const left = position.lots - lots;
    const close = db
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
      .returning()
      .get();
    const row = db
      .update(positions)
      .set(left === 0 ? { lots: 0, status: "closed", closedAt: request.closedAt } : { lots: left })
      .where(eq(positions.id, id))
      .returning()
      .get();
    return {
      kind: "closed",
      close,
      position: storedPosition(row as NonNullable<typeof row>),
      before: position,
    } as const;
  };
  return {
    listOpen: () =>
      run(() =>
        db
          .select()
          .from(positions)
          .where(eq(positions.status, "open"))
          .orderBy(asc(positions.id))
          .all()
          .map(storedPosition),
      ),
    list: (ownerId, status) =>
      run(() =>
        db
          .select()
          .from(positions)
          .where(and(eq(positions.ownerId, ownerId), eq(positions.status, status)))
          .orderBy(asc(positions.id))
          .all()
          .map(storedPosition),
      ),
    find: (ownerId, id) => run(() => find(ownerId, id)),
    create: (ownerId, fields, rolledFrom) =>
      run(() => db.transaction(() => insert(ownerId, fields, rolledFrom))),
    open: (ownerId, fields, maxOpen) =>
      run(() =>
        // One writer at a time: the count and the insert cannot interleave with another open.
        db.transaction(() => {
          const open =
            db
              .select({ n: count() })
              .from(positions)
              .where(and(eq(positions.ownerId, ownerId), eq(positions.status, "open")))
              .get()?.n ?? 0;
          return open >= maxOpen ? undefined : insert(ownerId, fields);
        }),
      ),
    openLive: (ownerId, fields) =>
      run(() =>
        db.transaction(() => {
          const existing = db
            .select()
            .from(positions)
            .where(eq(positions.executionId, fields.executionId))
            .get();
          return existing ? storedPosition(existing) : insert(ownerId, fields);
        }),
      ),
    applyLive: (ownerId, positionId, fields, realise) =>
      run(() =>
        // One writer at a time: the check for an earlier application and the change are one.
        db.transaction(() => {
          const opened = db
            .select()
            .from(positions)
            .where(eq(positions.executionId, fields.executionId))
            .get();
          if (opened) return storedPosition(opened);
          const key = liveAppliedKey(fields.executionId);
          const applied = db.select().from(keyValues).where(eq(keyValues.key, key)).get();
          const target = find(
            ownerId,
            applied ? (JSON.parse(applied.value) as number) : positionId,
          );
          if (applied) return target;
          const change = liveApplication(target, fields);
          if (change.kind === "open" || !target) return insert(ownerId, fields);
          const mark = () =>
            db
              .insert(keyValues)
              .values({ key, value: JSON.stringify(target.id), updatedAt: fields.openedAt })
              .run();
          if (change.kind === "add") {
            mark();
            const row = db
              .update(positions)
              .set(change.set)
              .where(eq(positions.id, target.id))
              .returning()
              .get();
            return storedPosition(row as NonNullable<typeof row>);
          }
          const request = {
            lots: change.lots,
            exit: fields.entry,
            closedAt: fields.openedAt,
            reason: "close" as const,
          };
          const closed = closeNow(ownerId, target.id, request, realise);
          if (closed.kind !== "closed") throw new Error("the live close closed nothing");
          mark();
          return change.rest > 0
            ? insert(ownerId, { ...fields, lots: change.rest })
            : closed.position;
        }),
      ),
    update: (ownerId, id, patch) =>
      run(() => {
        const set = Object.fromEntries(
          Object.entries(patch).filter(([, value]) => value !== undefined),
        );
        if (Object.keys(set).length === 0) return find(ownerId, id);
        const row = db.update(positions).set(set).where(mine(ownerId, id)).returning().get();
        return row && storedPosition(row);
      }),
    delete: (ownerId, id) =>
      run(
        () =>
          db.delete(positions).where(mine(ownerId, id)).returning({ id: positions.id }).all()
            .length > 0,
      ),
    close: (ownerId, id, request, realise) =>
      run(() =>
        db.transaction(() => {
          const result = closeNow(ownerId, id, request, realise);
          if (result.kind !== "closed") return result;
          return { kind: "closed", close: result.close, position: result.position } as const;
        }),
      ),
    roll: (ownerId, id, request, realise, next) =>
      run(() =>
        db.transaction(() => {
          const result = closeNow(ownerId, id, { ...request, reason: "roll" }, realise);
          if (result.kind !== "closed") return result;
          const closed: StoredPosition = result.position;
          const position = insert(ownerId, next(result.before), {
            campaignId: closed.campaignId,
            id: closed.id,
          });
          return { kind: "rolled", close: result.close, closed, position } as const;
        }),
      ),
    closes: (ownerId, positionIds) =>
      run(() =>
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
          .orderBy(asc(positionCloses.closedAt), asc(positionCloses.id))
          .all(),
      ),
    countOpenOn: (symbol) =>
      run(
        () =>
          db
            .select({ n: count() })
            .from(positions)
            .where(and(eq(positions.spread, symbol), eq(positions.status, "open")))
            .get()?.n ?? 0,
      ),
  };
}
