import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/**
 * vitest globalSetup of the db project: one PostgreSQL server for the whole run (starting one
 * takes a second or two; a database on it takes milliseconds). SPREADWATCH_TEST_POSTGRES_URL
 * points the tests at a server of your own instead.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const external = process.env.SPREADWATCH_TEST_POSTGRES_URL;
  if (external) {
    project.provide("postgresUrl", external);
    return () => {};
  }
  const server = await startPostgres();
  project.provide("postgresUrl", server.url);
  return () => server.stop();
}
