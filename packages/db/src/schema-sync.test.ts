import { getTableName, is, Table } from "drizzle-orm";
import { type PgTable, getTableConfig as pgTableConfig } from "drizzle-orm/pg-core";
import { type SQLiteTable, getTableConfig as sqliteTableConfig } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as pgSchema from "./pg/schema.ts";
import * as sqliteSchema from "./sqlite/schema.ts";

/** Each dialect's column types as one vocabulary: what a column holds, not how it is spelled. */
const KINDS: Record<string, string> = {
  SQLiteInteger: "integer",
  PgInteger: "integer",
  PgBigInt53: "integer",
  SQLiteBoolean: "boolean",
  PgBoolean: "boolean",
  SQLiteReal: "double",
  PgDoublePrecision: "double",
  SQLiteText: "text",
  PgText: "text",
};

type Config = ReturnType<typeof sqliteTableConfig> | ReturnType<typeof pgTableConfig>;

/** A table as both engines must agree on it; `kind` of an unknown type is the type itself. */
function describeTable(config: Config) {
  const columnsOf = (columns: readonly { name: string }[]) => columns.map((c) => c.name);
  return {
    columns: Object.fromEntries(
      config.columns.map((c) => [
        c.name,
        {
          kind: KINDS[c.columnType] ?? c.columnType,
          notNull: c.notNull,
          primary: c.primary,
          unique: c.isUnique,
          default: c.default,
          enum: c.enumValues ?? null,
        },
      ]),
    ),
    primaryKeys: config.primaryKeys.map((pk) => columnsOf(pk.columns)),
    indexes: config.indexes
      .map((index) => ({
        name: index.config.name,
        unique: index.config.unique,
        on: (index.config.columns as { name: string }[]).map((c) => c.name),
      }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name))),
    foreignKeys: config.foreignKeys
      .map((fk) => {
        const { columns, foreignTable, foreignColumns } = fk.reference();
        return {
          columns: columnsOf(columns),
          to: getTableName(foreignTable),
          toColumns: columnsOf(foreignColumns),
          onDelete: fk.onDelete ?? null,
        };
      })
      .sort((a, b) => a.columns.join().localeCompare(b.columns.join())),
  };
}

function tablesOf<T extends Table>(schema: object, config: (table: T) => Config) {
  const tables = Object.values(schema).filter((value): value is T => is(value, Table));
  return Object.fromEntries(tables.map((t) => [getTableName(t), describeTable(config(t))]));
}

const sqlite = tablesOf<SQLiteTable>(sqliteSchema, sqliteTableConfig);
const pg = tablesOf<PgTable>(pgSchema, pgTableConfig);

describe("the SQLite and PostgreSQL schemas", () => {
  it("have the same tables", () => {
    expect(Object.keys(pg).sort()).toEqual(Object.keys(sqlite).sort());
  });

  it.each(Object.keys(sqlite))(
    "%s: same columns, types, nullability, defaults, enums, keys and indexes",
    (name) => {
      expect(pg[name]).toEqual(sqlite[name]);
    },
  );

  it("map every column type they use", () => {
    const kinds = [...Object.values(sqlite), ...Object.values(pg)].flatMap((t) =>
      Object.values(t.columns).map((c) => c.kind),
    );
    expect(new Set(kinds)).toEqual(new Set(Object.values(KINDS)));
  });
});
