/**
 * What a spread formula's sign means, read from its outermost operator (docs/formulas.md): a
 * difference `a - b` is above 0 when a is higher than b; a ratio `g / s` compares with 1, and
 * its sign says nothing (both legs are prices). Anything else is read as written.
 */
export type FormulaShape =
  | { kind: "difference"; left: string; right: string }
  | { kind: "ratio"; left: string; right: string }
  | { kind: "other" };

/** The index of the last operator among `operators` outside parentheses, or -1. */
function lastTopLevel(formula: string, operators: string): number {
  let depth = 0;
  let found = -1;
  let operand = false;
  for (let i = 0; i < formula.length; i++) {
    const char = formula.charAt(i);
    if (char === "(") depth++;
    else if (char === ")") depth--;
    // A sign before an operand (`-a`, `a * -b`) is unary, not the formula's operator.
    if (depth === 0 && operand && operators.includes(char)) found = i;
    if (char === ")" || /[\w.]/.test(char)) operand = true;
    else if (char !== " " && char !== "\t") operand = false;
  }
  return found;
}

/** The formula's outermost operator and its two sides, trimmed, where it is `-` or `/`. */
export function formulaShape(formula: string): FormulaShape {
  const text = formula.trim();
  const additive = lastTopLevel(text, "+-");
  if (additive >= 0) {
    if (text.charAt(additive) !== "-") return { kind: "other" };
    const left = text.slice(0, additive).trim();
    return { kind: "difference", left, right: text.slice(additive + 1).trim() };
  }
  const multiplicative = lastTopLevel(text, "*/");
  if (multiplicative >= 0 && text.charAt(multiplicative) === "/") {
    return {
      kind: "ratio",
      left: text.slice(0, multiplicative).trim(),
      right: text.slice(multiplicative + 1).trim(),
    };
  }
  return { kind: "other" };
}
