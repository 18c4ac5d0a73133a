import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database } from "@spreadwatch/db";
import type { MarketHub } from "./market/hub.ts";

/** Long-lived parts of a running server, shared by every request. */
export interface AppServices {
  hub: MarketHub;
  db: Database;
  /** Aborted at shutdown so open subscriptions end and their connections close. */
  shutdownSignal: AbortSignal;
}

export interface Context {
  services: AppServices;
  req?: IncomingMessage;
  res?: ServerResponse;
}

/** Context without a request: what tests and the REST adapter's caller start from. */
export function createContextInner(services: AppServices): Context {
  return { services };
}

export function createContext(
  services: AppServices,
  req: IncomingMessage,
  res: ServerResponse,
): Context {
  return { ...createContextInner(services), req, res };
}
