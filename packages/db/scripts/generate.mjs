// `pnpm --filter @spreadwatch/db generate --name what_it_does`: one migration per engine, each
// from its own schema (drizzle.config.ts: SQLite into drizzle/, drizzle.pg.config.ts:
// PostgreSQL into drizzle-pg/), with the same arguments, so neither engine is forgotten.
import { spawnSync } from "node:child_process";

for (const config of ["drizzle.config.ts", "drizzle.pg.config.ts"]) {
  const args = ["generate", "--config", config, ...process.argv.slice(2)];
  const { status } = spawnSync("drizzle-kit", args, { stdio: "inherit" });
  if (status !== 0) process.exit(status ?? 1);
}
