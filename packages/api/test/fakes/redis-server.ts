import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withRealClock } from "../test-env.ts";

const REDIS_SERVER = process.env.REDIS_SERVER ?? "/usr/bin/redis-server";

/** A port nobody listens on right now (the OS picks it; there is a small race, retried below). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * A real, throw-away redis-server (Debian's package) on loopback: no persistence, its files in a
 * temp dir. `kill` and `start` again on the same port let tests cut Redis and bring it back.
 */
export class RedisServer {
  private child: ChildProcess | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), "spreadwatch-redis-"));
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts on `port` (a free one by default) and resolves once Redis accepts connections. */
  async start(port?: number): Promise<this> {
    for (let attempt = 1; ; attempt++) {
      this.port = port ?? (await freePort());
      try {
        this.child = await launch(this.port, this.dir);
        return this;
      } catch (error) {
        if (port !== undefined || attempt >= 3) throw error;
      }
    }
  }

  /** SIGKILL, as a crash or a pulled cable would do; resolves when the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  async dispose(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", ""];
  args.push("--appendonly", "no", "--dir", dir, "--loglevel", "notice");
  // Redis's allocator calls the clock while libfaketime starts, which it cannot survive; Redis
  // keeps the real date in a `pnpm test:at` run (nothing tested reads Redis's clock).
  const child = spawn(REDIS_SERVER, args, {
    env: withRealClock(process.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => fail("did not get ready within 10 s"), 10_000);
    function fail(why: string) {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`redis-server on port ${port} ${why}:\n${output}`));
    }
    child.on("error", (error) => fail(`could not start (${error.message})`));
    child.on("exit", (code) => fail(`exited with ${code}`));
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        child.removeAllListeners("exit");
        resolve(child);
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
  });
}
