import type { InputMarks } from "../../market/inputMarks.ts";

/** The raw price table's "delayed" and "last" tags, beside a spread computed from such inputs. */
export function InputTags({ marks }: { marks: InputMarks }) {
  return (
    <>
      {marks.delayed && (
        <span className="price-tag" data-tag="delayed" title={marks.delayed}>
          delayed
        </span>
      )}
      {marks.lastOnly && (
        <span className="price-tag" data-tag="last-only" title={marks.lastOnly}>
          last
        </span>
      )}
    </>
  );
}
