import { compileFormula, FormulaError } from "@spreadwatch/core";

/** Where the builder shows a server sentence: beside the formula, the name, a leg, or the form. */
export interface BuilderError {
  field: "formula" | "name" | "legs" | "form";
  /** The leg a "legs.1.instrument: …" sentence names (0-based). */
  leg?: number;
  text: string;
  /** The formula's 1-based position a sentence ends in ("unknown name `gm2` at 9"). */
  position?: number;
}

const FIELD = /^(name|formula|legs(?:\.(\d+))?(?:\.\w+)?):\s*/;
const POSITION = / at (\d+)$/;
/** Formula sentences that name no position: "the formula is empty", "leg `b` is not used …". */
const ABOUT_FORMULA = /formula|\bleg `|legs are named|parenthes|operator|argument|expression/;

/**
 * Reads a 400's sentence (docs/formulas.md): "name: must not be empty", "legs.1.instrument: X
 * is not an instrument", or a formula error that names its position. Anything else (the limit
 * of 50, a 403 for sharing) belongs to the form as a whole.
 */
export function builderError(message: string): BuilderError {
  const field = FIELD.exec(message);
  const at = POSITION.exec(message);
  const position = at ? Number(at[1]) : undefined;
  if (field) {
    const text = message.slice(field[0].length);
    const name = field[1] as string;
    if (name === "name") return { field: "name", text };
    if (name === "formula") return { field: "formula", text, ...(position && { position }) };
    return { field: "legs", text, ...(field[2] !== undefined && { leg: Number(field[2]) }) };
  }
  if (position !== undefined) return { field: "formula", text: message, position };
  if (ABOUT_FORMULA.test(message)) return { field: "formula", text: message };
  return { field: "form", text: message };
}

/**
 * What the builder can tell before sending (core's own checks, docs/formulas.md): an empty name
 * and a formula that does not compile over the legs' names, each beside its field. The server
 * checks again and names only its first refusal; these let every one show at once.
 */
export function localErrors(
  name: string,
  formula: string,
  legs: readonly { name: string }[],
): BuilderError[] {
  const found: BuilderError[] = [];
  if (name.trim() === "") found.push({ field: "name", text: "must not be empty" });
  try {
    compileFormula(
      formula,
      legs.map((leg) => leg.name.trim()),
    );
  } catch (error) {
    if (!(error instanceof FormulaError)) throw error;
    const read = builderError(error.message);
    found.push({
      field: "formula",
      text: read.field === "formula" ? read.text : error.message,
      ...(error.position !== undefined && { position: error.position }),
    });
  }
  return found;
}
