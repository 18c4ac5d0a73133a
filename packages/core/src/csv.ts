// One CSV cell, for every CSV the product writes (the closed trades, the chart's candles). A
// text cell is always quoted, and a formula start is defused wherever a spreadsheet might begin
// a cell: a spread named `x;=cmd|' /C calc'!A0;` must stay text in a locale that splits on `;`.
import { formatNumber } from "./decimals.ts";

/**
 * A formula start (= + - @ tab CR: what Excel, LibreOffice and Google Sheets read as one, OWASP
 * "CSV injection") at the start of the text, or after a separator some spreadsheet splits on
 * (`,` most locales, `;` where the comma is the decimal mark, tab, `|`), spaces between allowed
 * as a spreadsheet may trim them.
 */
const CELL_START = /(?<=^|[,;\t|])( *)([=+\-@\t\r])/g;

export type CsvValue = string | number | null | undefined;

/**
 * `value` as one CSV cell. A number is a bare number (`decimals` fixed when given, rounded as
 * formatNumber does; not finite: an empty cell), so a spreadsheet reads it as a number. Text is
 * quoted (inner quotes doubled) and every formula start where a cell may begin gets an
 * apostrophe before it, which spreadsheets show as text. null and undefined are empty.
 */
export function csvCell(value: CsvValue, decimals?: number): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "";
    return decimals === undefined ? String(value) : formatNumber(value, decimals);
  }
  const defused = value.replace(CELL_START, "$1'$2");
  return `"${defused.replaceAll('"', '""')}"`;
}
