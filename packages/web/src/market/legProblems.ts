import { type BookEntry, formatNumber, rawPriceDecimals } from "@spreadwatch/core";
import { providerLabel, STATE_TEXT } from "./feedHealth.ts";
import { type FreshnessContext, freshness, isCrossed } from "./freshness.ts";
import { type InputMarks, inputMarks, type SpreadInput } from "./inputMarks.ts";

/** `rolled`: a position's leg now quotes another contract than the one it holds. */
export type LegProblemKind = "missing" | "crossed" | "stale" | "rolled";

/** Why a spread row cannot be trusted right now, e.g. "CME GC bid is 14 s old". */
export interface LegProblem {
  kind: LegProblemKind;
  text: string;
}

/** "14 s", "3 min", "2 h", "4 d": how old a price is, for a sentence. */
function formatAgeShort(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
}

function problemOf(input: SpreadInput, context: FreshnessContext): LegProblem | undefined {
  const { entry, side } = input;
  const name = side ? `${input.label} ${side}` : input.label;
  if (!entry || (side && (entry as BookEntry)[side] === undefined)) {
    return { kind: "missing", text: `${name} missing` };
  }
  if (isCrossed(entry)) {
    const decimals = rawPriceDecimals(input.source, input.key);
    const bid = formatNumber(entry.bid, decimals);
    const ask = formatNumber(entry.ask, decimals);
    return { kind: "crossed", text: `${input.label} book crossed (bid ${bid} > ask ${ask})` };
  }
  const fresh = freshness(entry, context.providers.get(input.key), context.now);
  if (fresh.kind === "cut") {
    const provider = `${providerLabel(fresh.provider.name)} is ${STATE_TEXT[fresh.provider.state]}`;
    return { kind: "stale", text: `${name} is not being updated (${provider})` };
  }
  if (fresh.kind === "old") {
    const age = fresh.ageMs === null ? "of unknown age" : `${formatAgeShort(fresh.ageMs)} old`;
    return { kind: "stale", text: `${name} is ${age}` };
  }
  return undefined;
}

/** The badge names the worst: a missing input or a crossed book makes the spread unknowable. */
const SEVERITY: Record<LegProblemKind, number> = { rolled: 0, missing: 0, crossed: 1, stale: 2 };

/** Every input of a spread row that is missing, crossed or stale, worst first, then in order. */
export function legProblems(inputs: SpreadInput[], context: FreshnessContext): LegProblem[] {
  return inputs
    .flatMap((input) => problemOf(input, context) ?? [])
    .sort((a, b) => SEVERITY[a.kind] - SEVERITY[b.kind]);
}

/** What a spread row shows of its legs: its problems, its inputs' marks, and the row's flags. */
export interface LegsState {
  problems: LegProblem[];
  marks: InputMarks;
  /** A leg cannot be trusted: the row is greyed (class row--greyed, data-greyed). */
  greyed: boolean;
  /** The row's data attributes: data-delayed only on a spread computed from a delayed input. */
  data: { "data-delayed": true | undefined; "data-greyed": true | undefined };
}

/** The state of a spread row's legs; `computed` says whether the row has a spread at all. */
export function legsState(
  inputs: SpreadInput[],
  context: FreshnessContext,
  computed: boolean,
): LegsState {
  const problems = legProblems(inputs, context);
  const marks = inputMarks(inputs);
  const greyed = problems.length > 0;
  return {
    problems,
    marks,
    greyed,
    data: {
      "data-delayed": (computed && marks.delayed !== undefined) || undefined,
      "data-greyed": greyed || undefined,
    },
  };
}
