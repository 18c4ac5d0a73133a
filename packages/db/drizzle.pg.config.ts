import { defineConfig } from "drizzle-kit";

// The PostgreSQL adapter's schema and migrations, beside (not instead of) the SQLite ones.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/pg/schema.ts",
  out: "./drizzle-pg",
});
