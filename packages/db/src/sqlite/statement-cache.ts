import type BetterSqlite3 from "better-sqlite3";

/**
 * How many compiled statements a connection keeps. The queries the code runs are a few hundred
 * texts at most; `IN (?, ?, …)` lists of every length could make more, and the oldest go first.
 */
const STATEMENTS_KEPT = 500;

/**
 * Makes `sqlite.prepare` hand back the statement it compiled before for the same SQL text.
 * drizzle prepares every query it runs anew, and better-sqlite3 compiles on each prepare: on a
 * test server, a session read per request, the outbox's claims and the alert reloads spent half
 * a second of 9 in `prepare` (BENCHMARKS.md §36). A kept statement comes back as a new one
 * would: out of raw mode (drizzle switches it on for the queries whose columns it maps). One
 * still being iterated is busy and cannot run again meanwhile, so a fresh one is compiled then.
 */
export function keepCompiledStatements(sqlite: BetterSqlite3.Database): void {
  const compile = sqlite.prepare.bind(sqlite);
  const kept = new Map<string, BetterSqlite3.Statement>();
  const prepare = (source: string): BetterSqlite3.Statement => {
    const statement = kept.get(source);
    if (statement && !statement.busy) {
      if (statement.reader) statement.raw(false);
      return statement;
    }
    const compiled = compile(source);
    if (!statement) {
      if (kept.size >= STATEMENTS_KEPT) kept.delete(kept.keys().next().value as string);
      kept.set(source, compiled);
    }
    return compiled;
  };
  sqlite.prepare = prepare as typeof sqlite.prepare;
}
