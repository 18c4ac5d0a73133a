import type { MouseEvent } from "react";
import type { LegProblem } from "../market/legProblems.ts";
import { Tooltip } from "./alerts/Tooltip.tsx";

/**
 * The badge of a greyed spread row ("stale", "crossed", "missing"): hovering, focusing or
 * tapping it shows why, one line per input at fault.
 */
export function LegWarning({ problems }: { problems: LegProblem[] }) {
  const first = problems[0];
  if (!first) return null;
  const reasons = problems.map((problem) => problem.text);
  return (
    <Tooltip
      content={
        <ul className="tooltip__lines">
          {reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      }
    >
      {(tip) => (
        <button
          type="button"
          {...tip}
          className="leg-warning"
          data-reason={first.kind}
          aria-label={`Not to be trusted now: ${reasons.join("; ")}`}
          // A tap shows the reason too (touch screens have no hover); the row's own click,
          // which opens the chart, is not triggered.
          onClick={(event: MouseEvent<HTMLButtonElement>) => {
            event.stopPropagation();
            event.currentTarget.focus();
            tip.onFocus(event);
          }}
        >
          {first.kind}
        </button>
      )}
    </Tooltip>
  );
}
