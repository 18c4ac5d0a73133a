import type { AnyProcedure } from "@trpc/server";
import { z } from "zod";
import { SESSION_COOKIE } from "../auth/session.ts";
import { appRouter } from "../router.ts";
import { RestReply } from "./reply.ts";
import { REST_ROUTES, type RestRequest, type RestRoute } from "./routes.ts";

/**
 * The OpenAPI 3.1 description of the REST table (docs/http-api.md), served at
 * GET /api/openapi.json. Nothing in it is written by hand twice: the paths, methods, statuses and
 * where each input field comes from (path, query, Idempotency-Key, body) are read off
 * REST_ROUTES by running each row against a caller that records instead of calling; the
 * schemas are the procedures' own zod input and output schemas through zod's z.toJSONSchema.
 */
export const OPENAPI_PATH = "/api/openapi.json";

type JsonSchema = Record<string, unknown>;

/** What one REST row does with a request, as recorded by `probe`. */
export interface RouteUse {
  procedure: string;
  pathParams: string[];
  query: string[];
  idempotencyKey: boolean;
  body: boolean;
  status: number;
  /** Set for a text answer (the CSV), absent for JSON. */
  contentType?: string;
}

/**
 * Stands for any value a procedure might answer, so `call` can read fields of it (`report.ok`,
 * `.url`). Not thenable: `await` hands it back as it is.
 */
const anything: unknown = new Proxy(() => anything, {
  get: (_target, key) => (key === "then" ? undefined : anything),
  apply: () => anything,
});

/** Runs one row's `call` against a recording caller and a request that notes what it is asked. */
export async function probe(route: RestRoute): Promise<RouteUse> {
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1] ?? "");
  const query: string[] = [];
  const headerNames: string[] = [];
  let bodyRead = false;
  const body = new Proxy(
    {},
    {
      ownKeys: () => {
        bodyRead = true;
        return [];
      },
    },
  );
  const request: RestRequest = {
    params: Object.fromEntries(pathParams.map((name) => [name, `{${name}}`])),
    query: {
      get: (name: string) => {
        query.push(name);
        return null;
      },
    } as unknown as URLSearchParams,
    headers: {
      get: (name: string) => {
        headerNames.push(name.toLowerCase());
        return null;
      },
    } as unknown as Headers,
    body,
  };
  const called: string[] = [];
  const caller = (path: string[]): unknown =>
    new Proxy(() => {}, {
      get: (_target, key) => (typeof key === "string" ? caller([...path, key]) : undefined),
      apply: (_target, _this, args: unknown[]) => {
        called.push(path.join("."));
        if (args[0] === body) bodyRead = true;
        return Promise.resolve(anything);
      },
    });
  const result = await route.call(caller([]) as Parameters<RestRoute["call"]>[0], request);
  const procedure = called[0];
  if (procedure === undefined || called.length > 1) {
    throw new Error(`${route.method} ${route.path} does not call exactly one procedure`);
  }
  const reply = result instanceof RestReply ? result : undefined;
  return {
    procedure,
    pathParams,
    query,
    idempotencyKey: headerNames.includes("idempotency-key"),
    body: bodyRead,
    status: reply?.status ?? 200,
    ...(reply?.contentType !== undefined && { contentType: reply.contentType.split(";")[0] }),
  };
}

/** The parsers tRPC keeps on a procedure (`_def.output` is there at run time, untyped). */
function parsersOf(procedure: string): { input?: z.ZodType; output?: z.ZodType } {
  // Typed as the nested router, kept flat by dotted path at run time ("market.stats").
  const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;
  const found = procedures[procedure];
  if (found === undefined) throw new Error(`no procedure ${procedure}`);
  const def = found._def as { inputs: unknown[]; output?: unknown };
  const zod = (parser: unknown) => (parser instanceof z.ZodType ? parser : undefined);
  const input = def.inputs.length === 1 ? zod(def.inputs[0]) : undefined;
  const output = zod(def.output);
  return { ...(input && { input }), ...(output && { output }) };
}

/** Schemas shared by many operations, filled in as they are met (zod's `$defs`). */
class Components {
  readonly schemas: Record<string, JsonSchema> = {
    Error: {
      type: "object",
      properties: { error: { type: "string" } },
      required: ["error"],
      description: "Every error: a sentence naming the field or the reason (docs/http-api.md).",
    },
  };

  /** A zod schema as an OpenAPI 3.1 schema object; its `$defs` move to components. */
  schema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
    const { $schema: _dialect, $defs, ...rest } = json;
    for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      this.schemas[name] = rewriteRefs(def) as JsonSchema;
    }
    return rewriteRefs(rest) as JsonSchema;
  }
}

/** zod's local `#/$defs/x` references, pointed at the document's components. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === "$ref" && typeof inner === "string"
        ? inner.replace(/^#\/\$defs\//, "#/components/schemas/")
        : rewriteRefs(inner),
    ]),
  );
}

function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  return (schema?.properties as Record<string, JsonSchema> | undefined) ?? {};
}

/** The request body: the input's fields less those the path, query and header carry. */
function bodySchema(input: JsonSchema | undefined, taken: string[]): JsonSchema | undefined {
  if (input === undefined) return { type: "object" };
  if (input.type !== "object") return input;
  const properties = Object.fromEntries(
    Object.entries(propertiesOf(input)).filter(([name]) => !taken.includes(name)),
  );
  const required = ((input.required as string[] | undefined) ?? []).filter(
    (name) => !taken.includes(name),
  );
  return { ...input, properties, ...(required.length > 0 ? { required } : { required: [] }) };
}

function operation(route: RestRoute, use: RouteUse, components: Components): JsonSchema {
  const { input, output } = parsersOf(use.procedure);
  const inputSchema = input && components.schema(input, "input");
  const field = (name: string): JsonSchema => propertiesOf(inputSchema)[name] ?? { type: "string" };
  const parameters: JsonSchema[] = [
    ...use.pathParams.map((name) => ({ name, in: "path", required: true, schema: field(name) })),
    ...use.query.map((name) => ({ name, in: "query", required: false, schema: field(name) })),
    ...(use.idempotencyKey
      ? [
          {
            name: "Idempotency-Key",
            in: "header",
            required: false,
            description: "Repeating it repeats the first answer and creates nothing.",
            schema: field("idempotencyKey"),
          },
        ]
      : []),
  ];
  const taken = [...use.pathParams, ...use.query, "idempotencyKey"];
  const requestSchema = use.body ? bodySchema(inputSchema, taken) : undefined;
  const answer = (): JsonSchema => {
    if (use.status === 204) return { description: "Done; no body." };
    if (use.status === 302) {
      return {
        description: "A redirect.",
        headers: { Location: { schema: { type: "string" } } },
      };
    }
    if (use.contentType !== undefined) {
      return {
        description: "The answer as text.",
        content: { [use.contentType]: { schema: { type: "string" } } },
      };
    }
    return {
      description: output ? "The answer." : "The answer (not described by a schema).",
      content: {
        "application/json": { schema: output ? components.schema(output, "output") : {} },
      },
    };
  };
  const responses: Record<string, JsonSchema> = { [String(use.status)]: answer() };
  // /api/health answers its report with 503 while no price is fresh.
  if (route.path === "/api/health") {
    responses["503"] = { ...answer(), description: "No price is fresh; the same report." };
  }
  responses.default = {
    description: "An error: 400 bad input, 401, 403, 404, 409, 413, 415, 422, 429, 5xx.",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  };
  return {
    operationId: use.procedure,
    summary: `tRPC procedure ${use.procedure}`,
    tags: [route.path.split("/")[2] ?? "api"],
    ...(parameters.length > 0 && { parameters }),
    ...(requestSchema && {
      requestBody: {
        required: ((requestSchema.required as string[] | undefined) ?? []).length > 0,
        content: { "application/json": { schema: requestSchema } },
      },
    }),
    responses,
  };
}

/** `/api/alerts/:id` as OpenAPI spells it: `/api/alerts/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

async function build(): Promise<JsonSchema> {
  const components = new Components();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of REST_ROUTES) {
    const use = await probe(route);
    const path = openApiPath(route.path);
    paths[path] = {
      ...paths[path],
      [route.method.toLowerCase()]: operation(route, use, components),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Spreadwatch REST API",
      version: "1",
      description:
        "The spec's REST paths; each runs the tRPC procedure its operationId names, with the same " +
        "validation. Prices, calculations and health are public; every other path needs the " +
        "session cookie that POST /api/auth/login sets. Writes from a browser must be " +
        "same-origin. See docs/http-api.md.",
    },
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE },
      },
    },
  };
}

let built: Promise<JsonSchema> | undefined;

/** The document, built once per process on first ask. */
export function openApiDocument(): Promise<JsonSchema> {
  built ??= build();
  return built;
}
