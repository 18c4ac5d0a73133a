import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, startPostgres } from "@spreadwatch/db/testing/postgres";
import { FakeTelegram } from "../fake-telegram.ts";
import { HttpClient } from "../http-client.ts";
import { ADMIN, listeningUrl, type MainProcess, runMain } from "../server.ts";
import { telegramEnv } from "../telegram-trader.ts";
import { RedisServer } from "./redis-server.ts";
import { eventually } from "./wait.ts";

/** One server process of the cluster: killed with SIGKILL, as an operator's box dies. */
export interface ProcessInstance {
  id: string;
  main: MainProcess;
  url: string;
  dataDir: string;
}

/**
 * Server processes (the real entry point, as production runs it) on one real PostgreSQL (a
 * fresh database) and one real redis-server, with a fake Telegram on loopback: for the tests
 * that `kill -9` an instance, which an in-process server cannot stand in for.
 */
export class ProcessCluster {
  readonly instances: ProcessInstance[] = [];
  /** What every instance shares: DATABASE_URL, REDIS_URL, SESSION_SECRET, admin, Telegram. */
  env: Record<string, string> = {};
  databaseUrl = "";
  telegram = new FakeTelegram();
  private postgres: Awaited<ReturnType<typeof startPostgres>> | undefined;
  private database: Awaited<ReturnType<typeof createDatabase>> | undefined;
  private redis = new RedisServer();

  async start(): Promise<this> {
    const [postgres] = await Promise.all([
      startPostgres(),
      this.redis.start(),
      this.telegram.start(),
    ]);
    this.postgres = postgres;
    this.database = await createDatabase(postgres.url);
    this.databaseUrl = this.database.url;
    this.env = {
      DATABASE_URL: this.database.url,
      REDIS_URL: this.redis.url,
      SESSION_SECRET: "a-session-secret-shared-by-every-instance",
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ...telegramEnv(this.telegram),
    };
    return this;
  }

  /** Starts instance `id` with the shared env and `env`; resolves once it listens. */
  async startInstance(id: string, env: Record<string, string>): Promise<ProcessInstance> {
    const dataDir = mkdtempSync(join(tmpdir(), `spreadwatch-${id}-`));
    const main = runMain({ ...this.env, ...env, INSTANCE_ID: id, DATA_DIR: dataDir });
    const instance = { id, main, dataDir, url: "" };
    this.instances.push(instance);
    instance.url = await listeningUrl(main);
    return instance;
  }

  // biome-ignore lint/suspicious/noExplicitAny: the health JSON is inspected field by field
  async health(instance: ProcessInstance): Promise<any> {
    return (await new HttpClient(instance.url).get("/api/health")).body;
  }

  /** Waits, with a deadline, until `instance` says it leads. */
  async leads(instance: ProcessInstance, what: string, deadlineMs: number): Promise<void> {
    await eventually(
      () => this.health(instance),
      (h) => h.instance?.leader === true,
      what,
      deadlineMs,
    );
  }

  async kill(instance: ProcessInstance): Promise<void> {
    instance.main.child.kill("SIGKILL");
    await instance.main.exited;
  }

  async stop(): Promise<void> {
    for (const instance of this.instances) {
      await this.kill(instance);
      rmSync(instance.dataDir, { recursive: true, force: true });
    }
    await this.telegram.stop();
    await this.redis.dispose();
    await this.database?.drop();
    this.postgres?.stop();
  }
}
