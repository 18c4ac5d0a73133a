// Reading a spread formula (docs/formulas.md): the names and numbers it may hold, jsep's parse of
// its text, and where in the text a message should point.
import jsep from "jsep";
import { TROY_OUNCE_GRAMS } from "./instrument.ts";

export const MAX_FORMULA_LENGTH = 500;
/** Parentheses (and nested calls) deeper than this are refused before parsing. */
export const MAX_FORMULA_DEPTH = 32;
export const MAX_LEGS = 8;

/** Named constants a formula may use (docs/formulas.md lists them). */
export const FORMULA_CONSTANTS: Readonly<Record<string, number>> = {
  TROY_OUNCE_GRAMS,
  GRAMS_PER_KG: 1000,
  POUNDS_PER_KG: 2.20462262185,
};

export const FUNCTIONS = {
  min: Math.min,
  max: Math.max,
  abs: Math.abs,
} as const;
export type FunctionName = keyof typeof FUNCTIONS;

/** Leg names: short, lower-case, so they never collide with a constant or read as a number. */
const LEG_NAME = /^[a-z][a-z0-9_]{0,15}$/;

export function isLegName(name: string): boolean {
  return LEG_NAME.test(name) && !Object.hasOwn(FUNCTIONS, name);
}

export class FormulaError extends Error {
  override name = "FormulaError";
  constructor(
    message: string,
    /** 1-based character position in the formula, where one can be named. */
    readonly position?: number,
  ) {
    super(position === undefined ? message : `${message} at ${position}`);
  }
}

/**
 * jsep's parse tree node, in jsep's own shape. Declared here rather than as `jsep.Expression` so
 * the packed core's declarations name no module a consumer does not install (jsep is bundled).
 */
export interface Node {
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: jsep's nodes hold values of any kind.
  [key: string]: any;
}

/** The first place `name` stands as a whole identifier in `text` (1-based), for messages. */
export function positionOf(text: string, name: string): number | undefined {
  const pattern = new RegExp(`(^|[^\\w$.])(${name.replace(/[$]/g, "\\$")})(?![\\w$])`);
  const match = pattern.exec(text);
  return match ? match.index + (match[1]?.length ?? 0) + 1 : undefined;
}

export function deepestNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const char of text) {
    if (char === "(" || char === "[") deepest = Math.max(deepest, ++depth);
    else if (char === ")" || char === "]") depth--;
  }
  return deepest;
}

export function findIdentifier(n: Node): string | undefined {
  if (n.type === "Identifier") return (n as jsep.Identifier).name;
  for (const value of Object.values(n)) {
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (child && typeof child === "object" && "type" in child) {
        const found = findIdentifier(child as Node);
        if (found !== undefined) return found;
      }
    }
  }
  return undefined;
}

export function parseFormula(text: string): Node {
  try {
    return jsep(text);
  } catch (error) {
    const index = (error as { index?: unknown }).index;
    const description = (error as { description?: unknown }).description;
    throw new FormulaError(
      typeof description === "string" ? description : "the formula cannot be read",
      typeof index === "number" ? index + 1 : undefined,
    );
  }
}
