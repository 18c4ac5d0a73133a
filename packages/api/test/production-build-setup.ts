import { ensureBuilt } from "../../../scripts/production-build.mjs";

/**
 * Vitest global set-up of the api and e2e projects: the tests that start a server process start
 * what `pnpm start` runs, so that artifact is built (or brought up to date) once, before any test
 * file runs. `pnpm test` has just built it; a direct `vitest` run after an edit rebuilds it here.
 */
export function setup(): void {
  ensureBuilt();
}
