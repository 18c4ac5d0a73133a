import type { AppServices } from "../context.ts";
import { describeZodError } from "../errors.ts";
import {
  StreamSelection,
  type StreamSelectionInput,
  streamSelectionInput,
  unknownNames,
} from "./stream-selection.ts";

/** The names a viewer's selection may use: instruments in use, spread symbols they may see. */
export function selectionNames(
  services: Pick<AppServices, "instruments" | "spreads">,
  viewer: number | undefined,
) {
  const spreadViewer = { id: viewer ?? -1 };
  return {
    isKey: (key: string) => services.instruments.get(key) !== undefined,
    isSymbol: (symbol: string) => services.spreads.canSee(spreadViewer, symbol),
  };
}

/** A parsed, known selection; the error sentence; or undefined when the client asked for all. */
export function checkSelection(
  input: StreamSelectionInput | undefined,
  services: Pick<AppServices, "instruments" | "spreads">,
  viewer: number | undefined,
): StreamSelection | string | undefined {
  if (input === undefined) return undefined;
  return unknownNames(input, selectionNames(services, viewer)) ?? new StreamSelection(input);
}

/**
 * The stream's `input` query parameter as httpSubscriptionLink sends it (JSON, no transformer):
 * a selection, undefined for none, or a sentence naming what is wrong (a 400).
 */
export function streamSelection(
  raw: string | undefined,
  services: Pick<AppServices, "instruments" | "spreads">,
  viewer: number | undefined,
): StreamSelection | string | undefined {
  if (raw === undefined || raw === "") return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return "input: not JSON";
  }
  if (json === null || json === undefined) return undefined;
  const parsed = streamSelectionInput.safeParse(json);
  if (!parsed.success) return describeZodError(parsed.error);
  return checkSelection(parsed.data, services, viewer);
}
