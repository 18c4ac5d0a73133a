// Spread formulas (docs/formulas.md): parsed once by jsep, checked against a short list of what
// may appear, and compiled to a flat list of arithmetic steps over the legs' numbers (a small
// stack machine). Nothing in a formula is ever looked up on an object or called outside `min`,
// `max` and `abs`, so a formula cannot reach anything but its legs' prices. One run of the steps
// can carry three sets of leg prices at once (BUY, SELL and mid), which is how the server
// evaluates a definition at every quote of its legs (BENCHMARKS.md, "Spread definitions").
//
// formula-parse.ts reads the text, formula-compile.ts checks it and makes the steps,
// formula-run.ts runs them; this file names what @spreadwatch/core exports of them.
export { compileFormula } from "./formula-compile.ts";
export {
  FORMULA_CONSTANTS,
  FormulaError,
  isLegName,
  MAX_FORMULA_DEPTH,
  MAX_FORMULA_LENGTH,
  MAX_LEGS,
} from "./formula-parse.ts";
export {
  type CompiledFormula,
  type Direction,
  evaluateSide,
  type LegBook,
  type SpreadSide,
} from "./formula-run.ts";
