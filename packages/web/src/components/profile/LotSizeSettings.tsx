import {
  DEFAULT_LOTS,
  INSTRUMENT_IDS,
  instrument,
  lotsOf,
  type McxLotKey,
} from "@spreadwatch/core";
import { useLotChoice } from "../../hooks/useLotChoice.ts";

/**
 * Issue 12 §1's per-user mini-lot choice: the lot the Spread table's Net / lot column is
 * priced in, per instrument, saved in this browser.
 */
export function LotSizeSettings() {
  const [choice, save] = useLotChoice();
  const choose = (id: (typeof INSTRUMENT_IDS)[number], key: McxLotKey) => {
    const next = { ...choice };
    if (key === DEFAULT_LOTS[id]) delete next[id];
    else next[id] = key;
    save(next);
  };
  return (
    <div className="lot-sizes">
      <p className="muted">
        The lot the Spread table's Net / lot column is priced in. Saved in this browser.
      </p>
      {INSTRUMENT_IDS.map((id) => {
        const lots = lotsOf(id);
        if (lots.length < 2) return null;
        const label = `Lot size for ${instrument(id).name}`;
        return (
          <label key={id} className="field">
            <span>{instrument(id).name}</span>
            <select
              aria-label={label}
              data-instrument={id}
              value={choice[id] ?? DEFAULT_LOTS[id]}
              onChange={(event) => choose(id, event.target.value as McxLotKey)}
            >
              {lots.map((lot) => (
                <option key={lot.key} value={lot.key}>
                  {lot.key} ({lot.size})
                </option>
              ))}
            </select>
          </label>
        );
      })}
    </div>
  );
}
