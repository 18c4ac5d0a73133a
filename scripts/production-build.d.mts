// Types for production-build.mjs, which the TypeScript test set-up imports.
export const ROOT: string;
export const START_SCRIPT: string;
/** What `pnpm start` puts in the server's environment (see the .mjs). */
export const START_ENV: { readonly MALLOC_ARENA_MAX: string };
export const WEB_INDEX: string;
export function bundlePath(entry: "main" | "users" | "kite"): string;
export function bundleIsStale(entry?: "main" | "users" | "kite"): boolean;
export function webIsStale(): boolean;
export function ensureBuilt(options?: { web?: boolean; entry?: "main" | "users" | "kite" }): void;
