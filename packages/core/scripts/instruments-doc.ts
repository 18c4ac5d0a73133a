// The tables of docs/instruments.md, made from the catalogue and the contract calendar so the
// document cannot drift from the data: test/instruments-doc.test.ts fails when they differ, and
//   pnpm exec tsx packages/core/scripts/instruments-doc.ts
// rewrites the generated part (between the two markers) in place.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  FUTURES,
  groupOfExchange,
  type InstrumentSpec,
  MAX_INSTRUMENTS,
  monthKey,
  SHIPPED_INSTRUMENTS,
  shippedInstrument,
} from "../src/catalogue.ts";
import {
  type ContractProduct,
  contractProduct,
  type ExpiryRule,
  liveContracts,
  MONTH_SELECTORS,
} from "../src/contract-calendar.ts";

export const START_MARKER =
  "<!-- generated:catalogue (packages/core/scripts/instruments-doc.ts) -->";
export const END_MARKER = "<!-- /generated:catalogue -->";
export const DOC_PATH = fileURLToPath(new URL("../../../docs/instruments.md", import.meta.url));

/** The worked example's day and roll window: near, next and far as the calendar names them. */
export const EXAMPLE_DAY = "2026-11-26";
export const EXAMPLE_ROLL_DAYS = 3;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const ORDINALS = ["", "first", "second", "third", "fourth", "fifth"];

function ordinal(n: number): string {
  const suffix = n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : "th";
  return n % 10 === 3 && n !== 13 ? `${n}rd` : `${n}${suffix}`;
}

function monthsBefore(n: number): string {
  return n === 0 ? "the contract month" : n === 1 ? "the month before" : `${n} months before`;
}

function businessDays(n: number): string {
  return `${n} business day${n === 1 ? "" : "s"}`;
}

/** An expiry rule in words, from its data: what the table says is what the calendar computes. */
export function describeRule(rule: ExpiryRule): string {
  switch (rule.kind) {
    case "day":
      return `the ${ordinal(rule.day)} of the contract month`;
    case "month-end": {
      const which = ["last", "second-last", "third-last", "fourth-last"][rule.back ?? 0];
      const base = `the ${which} business day of ${monthsBefore(rule.monthsBefore ?? 0)}`;
      const extra = Object.entries(rule.backIn ?? {}).map(
        ([month, n]) => `${MONTHS[Number(month) - 1]}: ${businessDays(n ?? 0)} earlier`,
      );
      return extra.length > 0 ? `${base} (${extra.join(", ")})` : base;
    }
    case "weekday":
      return `the ${ORDINALS[rule.nth]} ${WEEKDAYS[rule.weekday]} of the contract month`;
    case "before-day": {
      const more = rule.oneMoreIfHoliday
        ? ` (${rule.back + 1} if the ${ordinal(rule.day)} is not one)`
        : "";
      return `${businessDays(rule.back)} before the ${ordinal(rule.day)} of ${monthsBefore(rule.monthsBefore)}${more}`;
    }
    case "before-product": {
      const other = contractProduct(rule.product);
      const exchange = other ? shippedInstrument(other.root)?.exchange : undefined;
      const later = rule.monthsAfter === 1 ? "next month's" : `${rule.monthsAfter} months later's`;
      return `${businessDays(rule.back)} before the expiry of ${exchange} ${rule.product}'s ${later} contract`;
    }
  }
}

function listedMonths(p: ContractProduct): string {
  return p.months.length === 12 ? "every month" : p.months.map((m) => MONTHS[m - 1]).join(" ");
}

const code = (text: string) => `\`${text}\``;

/** A markdown table with its columns padded as the repository's formatter (biome) leaves them. */
function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, c) => Math.max(3, ...cells.map((r) => (r[c] ?? "").length)));
  const line = (r: readonly string[]) =>
    `| ${r.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(" | ")} |`;
  const [head = [], ...body] = cells;
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}

function futuresTable(): string {
  const rows = Object.entries(FUTURES).map(([root, base]) => {
    const p = contractProduct(root);
    if (!p) throw new Error(`${root} has no listing calendar`);
    const keys = MONTH_SELECTORS.map((m) => monthKey(root, m));
    for (const key of keys) if (!shippedInstrument(key)) throw new Error(`${key} is not shipped`);
    return [
      keys.map(code).join(" "),
      base.exchange,
      base.name,
      base.unit,
      base.lotUnits,
      base.tick,
      base.decimals,
      listedMonths(p),
      describeRule(p.expiry),
      p.firstNotice ? `first notice: ${describeRule(p.firstNotice)}` : "last trading day",
    ];
  });
  return table(
    [
      "keys (near, next, far)",
      "exchange",
      "name",
      "quote unit",
      "lotUnits",
      "tick",
      "decimals",
      "listed months",
      "last trading day",
      "rolls from",
    ],
    rows,
  );
}

function othersTable(): string {
  const rows = SHIPPED_INSTRUMENTS.filter((s) => s.month === null).map((s: InstrumentSpec) => [
    code(s.key),
    s.exchange,
    s.name,
    s.unit,
    s.currency,
    s.lotUnits,
    s.tick,
    s.decimals,
    groupOfExchange(s.exchange),
  ]);
  return table(
    ["key", "exchange", "name", "unit", "currency", "lotUnits", "tick", "decimals", "group"],
    rows,
  );
}

function exampleTable(): string {
  const rows = Object.keys(FUTURES).map((root) => {
    const p = contractProduct(root) as ContractProduct;
    const style = groupOfExchange(FUTURES[root]?.exchange ?? "MCX") === "mcx" ? "mcx" : "cme";
    const live = liveContracts(p, EXAMPLE_DAY, EXAMPLE_ROLL_DAYS, style);
    return [
      code(root),
      ...MONTH_SELECTORS.map((_, i) => {
        const c = live[i];
        return c
          ? `${c.symbol} (${c.expiry}${c.rollFrom !== c.expiry ? `, rolls ${c.rollFrom}` : ""})`
          : "—";
      }),
    ];
  });
  return table(["root", "near", "next", "far"], rows);
}

/** The generated part of docs/instruments.md, markers included. */
export function renderCatalogue(): string {
  const futures = Object.keys(FUTURES).length;
  const others = SHIPPED_INSTRUMENTS.filter((s) => s.month === null).length;
  return [
    START_MARKER,
    "",
    `${SHIPPED_INSTRUMENTS.length} shipped instruments: ${futures} futures in ${MONTH_SELECTORS.length} months ` +
      `(${futures * MONTH_SELECTORS.length} keys) and ${others} spot, index and FX prices. ` +
      `At most ${MAX_INSTRUMENTS} instruments are in use at once.`,
    "",
    "### Futures",
    "",
    futuresTable(),
    "",
    "### Spot, index and FX",
    "",
    othersTable(),
    "",
    `### Near, next and far on ${EXAMPLE_DAY} (roll window ${EXAMPLE_ROLL_DAYS} days)`,
    "",
    "Contract (last trading day; where positions roll earlier, the roll day), as the calendar",
    "names them for the simulator and Yahoo; Kite's own instruments list wins for MCX.",
    "",
    exampleTable(),
    "",
    END_MARKER,
  ].join("\n");
}

/** The document with its generated part replaced by `generated`. */
export function withGenerated(doc: string, generated: string): string {
  const start = doc.indexOf(START_MARKER);
  const end = doc.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error("docs/instruments.md lacks the generated markers");
  return doc.slice(0, start) + generated + doc.slice(end + END_MARKER.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const doc = readFileSync(DOC_PATH, "utf8");
  writeFileSync(DOC_PATH, withGenerated(doc, renderCatalogue()));
  console.log(`${DOC_PATH}: catalogue tables rewritten`);
}
