// Operator CLI against the same database as the server, for when nobody can sign in:
//   pnpm users list
//   pnpm users create <username> [--admin] [--alerts] [--password <password>]
//   pnpm users reset-password <username> [--password <password>]
// DATA_DIR picks the database (default ./data, relative to where pnpm was started);
// PASSWORD_HASH_COST the cost of a password it sets, as for the server (docs/operations.md).
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { openStore } from "@spreadwatch/db";
import { ZodError } from "zod";
import { changeAccountPassword, createAccount, UsernameTakenError } from "../auth/accounts.ts";
import { newPasswordSchema, usernameSchema } from "../auth/credentials.ts";
import { boxed } from "../auth/first-admin.ts";
import { randomPassword } from "../auth/passwords.ts";
import { ConfigError } from "../config/config-error.ts";
import { passwordCostFrom } from "../config/password-cost.ts";
import { DATABASE_FILE } from "../server.ts";

const USAGE = `Usage:
  pnpm users list
  pnpm users create <username> [--admin] [--alerts] [--password <password>]
  pnpm users reset-password <username> [--password <password>]
Without --password a random one is generated and printed once.`;

class UsageError extends Error {}

function passwordFrom(given: string | undefined): { password: string; generated: boolean } {
  if (given === undefined) return { password: randomPassword(), generated: true };
  return { password: newPasswordSchema().parse(given), generated: false };
}

function announce(username: string, password: string, generated: boolean, what: string): void {
  if (generated)
    console.log(boxed([`${what} "${username}". Password (shown only once):`, `  ${password}`]));
  else console.log(`${what} "${username}".`);
}

async function run(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      admin: { type: "boolean", default: false },
      alerts: { type: "boolean", default: false },
      password: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [command, name] = positionals;
  if (values.help || !command) return console.log(USAGE);

  const cost = passwordCostFrom(process.env);
  const dataDir = resolve(process.env.INIT_CWD ?? process.cwd(), process.env.DATA_DIR || "data");
  const store = await openStore({ kind: "sqlite", file: resolve(dataDir, DATABASE_FILE) });
  try {
    if (command === "list") {
      for (const user of await store.users.list()) {
        const role = user.isAdmin ? "admin" : "user";
        console.log(
          `${user.id}\t${user.username}\t${role}\talerts ${user.alertsEnabled ? "on" : "off"}`,
        );
      }
    } else if (command === "create") {
      const username = usernameSchema.parse(name ?? "");
      const { password, generated } = passwordFrom(values.password);
      await createAccount(
        store,
        { username, password, isAdmin: values.admin, alertsEnabled: values.alerts },
        cost,
      );
      announce(username, password, generated, `Created ${values.admin ? "admin" : "user"}`);
    } else if (command === "reset-password") {
      const user = await store.users.findByUsername(name ?? "");
      if (!user) throw new UsageError(`No user "${name ?? ""}".`);
      const { password, generated } = passwordFrom(values.password);
      await changeAccountPassword(store, user.id, password, cost);
      announce(user.username, password, generated, "Reset the password of");
    } else {
      throw new UsageError(`Unknown command "${command}".\n${USAGE}`);
    }
  } finally {
    await store.close();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ZodError)
    console.error(`users: ${error.issues[0]?.message ?? "invalid input"}`);
  else if (
    error instanceof UsageError ||
    error instanceof UsernameTakenError ||
    error instanceof ConfigError
  )
    console.error(`users: ${error.message}`);
  else if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS"))
    console.error(`users: ${(error as Error).message}\n${USAGE}`);
  else console.error("users: failed:", error);
  process.exit(1);
});
