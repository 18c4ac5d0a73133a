import {
  DEFAULT_LOTS,
  INSTRUMENT_IDS,
  type InstrumentId,
  instrument,
  lotsOf,
  type McxLotKey,
  mcxLot,
} from "@spreadwatch/core";
import { useLotChoice } from "../../hooks/market/useLotChoice.ts";
import { SelectField } from "../ui/Field.tsx";

/**
 * The per-user mini-lot choice (docs/user-guide.md, "Net / lot (₹) and z"): the lot the Spread
 * table's Net / lot column is priced in, per instrument, saved in this browser.
 */
export function LotSizeSettings() {
  const [choice, save] = useLotChoice();
  const choose = (id: InstrumentId, key: McxLotKey) => {
    const next = { ...choice };
    if (key === DEFAULT_LOTS[id]) delete next[id];
    else next[id] = key;
    save(next);
  };
  return (
    <div className="lot-sizes">
      <p className="muted">
        The lot the Spread table's Net / lot column is priced in, in this browser.
      </p>
      {INSTRUMENT_IDS.map((id) => {
        const lots = lotsOf(id).map((lot) => lot.key);
        // Copper has one MCX lot: nothing to choose.
        if (lots.length < 2) return null;
        return (
          <SelectField
            key={id}
            label={instrument(id).name}
            options={lots}
            value={choice[id] ?? DEFAULT_LOTS[id]}
            onChange={(key) => choose(id, key)}
            format={(key) => `${key} (${mcxLot(key).size})`}
          />
        );
      })}
    </div>
  );
}
