import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { useInstrumentList } from "../../hooks/market/useInstruments.ts";
import {
  type SpreadDefinitionView,
  useSpreadChanges,
} from "../../hooks/market/useSpreadDefinitions.ts";
import { useSubmissionKey } from "../../hooks/ui/useSubmissionKey.ts";
import { errorNumberOf, failureText, httpStatusOf } from "../../session/errors.ts";
import { flashMessage } from "../alerts/flashMessage.ts";
import { DialogActions } from "../ui/DialogActions.tsx";
import { Checkbox, Field } from "../ui/Field.tsx";
import { ModalForm } from "../ui/ModalForm.tsx";
import { type BuilderError, builderError, localErrors } from "./builderErrors.ts";
import { FormulaField } from "./FormulaField.tsx";
import { type LegDraft, LegsEditor } from "./LegsEditor.tsx";
import { TemplatePicker } from "./TemplatePicker.tsx";
import {
  DEFAULT_CHOICES,
  fromTemplate,
  type InstrumentChoice,
  type TemplateChoices,
  type TemplateKind,
} from "./templates.ts";

interface SpreadBuilderProps {
  /** The definition being edited; absent for a new one. */
  spread?: SpreadDefinitionView;
  /** Admins may share a definition with every user. */
  isAdmin: boolean;
  /** The user's alerts on the definition's BUY and SELL, which a delete takes with it. */
  alertCount: number;
  onClose: () => void;
}

const NEW_LEGS: LegDraft[] = [
  { name: "a", instrument: "GOLD", lots: "" },
  { name: "b", instrument: "GOLD@next", lots: "" },
];

function draftsOf(spread: SpreadDefinitionView | undefined): LegDraft[] {
  if (!spread) return NEW_LEGS;
  return spread.legs.map((leg) => ({
    name: leg.name,
    instrument: leg.instrument,
    lots: leg.lots == null ? "" : String(leg.lots),
  }));
}

/** "Your 2 alerts on it are deleted with it." — what the delete question says about alerts. */
export function deleteQuestion(name: string, alerts: number, shared: boolean): string {
  const yours =
    alerts === 0
      ? "No alert of yours uses it."
      : alerts === 1
        ? "Your 1 alert on it is deleted with it."
        : `Your ${alerts} alerts on it are deleted with it.`;
  const others = shared ? " Other users' alerts on it are deleted too." : "";
  return `Delete the spread “${name}”? ${yours}${others}`;
}

/**
 * The question again, with the server's count (its 409 `{ alerts }`) when it differs from the
 * user's own: every user's alerts on the spread, all deleted with it.
 */
export function alertsDeleteQuestion(name: string, alerts: number, yours: number): string {
  const others = Math.max(0, alerts - yours);
  const using =
    alerts === 1
      ? others === 1
        ? "An alert of another user uses"
        : "1 alert uses"
      : `${alerts} alerts${others === 0 ? "" : others === alerts ? " of other users" : ` (${others} of them other users')`} use`;
  const them = alerts === 1 ? "its alert" : `all ${alerts} alerts`;
  return `${using} the spread “${name}”. Delete the spread and ${them}?`;
}

/**
 * New spread / Edit spread (docs/user-guide.md "Spreads of your own"): a template or legs and a
 * typed formula. The server checks the definition; its 400 shows beside the field it names, a
 * formula error with its position marked. One submission is one request, whatever the clicking.
 */
export function SpreadBuilder({ spread, isAdmin, alertCount, onClose }: SpreadBuilderProps) {
  const formulaInput = useRef<HTMLInputElement>(null);
  const changes = useSpreadChanges();
  const submission = useSubmissionKey();
  const catalogue = useInstrumentList();
  const instruments = useMemo<InstrumentChoice[]>(() => {
    const data = catalogue.data;
    if (!data) return [];
    return [...data.instruments, ...data.available].sort(
      (a, b) => a.exchange.localeCompare(b.exchange) || a.key.localeCompare(b.key),
    );
  }, [catalogue.data]);
  const [kind, setKind] = useState<TemplateKind>("calendar");
  const [choices, setChoices] = useState<TemplateChoices>(DEFAULT_CHOICES);
  const [templateProblem, setTemplateProblem] = useState<string>();
  const [name, setName] = useState(spread?.name ?? "");
  const [legs, setLegs] = useState<LegDraft[]>(() => draftsOf(spread));
  const [formula, setFormula] = useState(spread?.formula ?? "a - b");
  const [shared, setShared] = useState(spread?.shared ?? false);
  // Every field's error at once: a missing name and a broken formula are both shown.
  const [errors, setErrors] = useState<readonly BuilderError[]>([]);
  const errorOf = (field: BuilderError["field"]) => errors.find((e) => e.field === field);
  const clearError = (field: BuilderError["field"]) =>
    setErrors((now) =>
      now.some((e) => e.field === field) ? now.filter((e) => e.field !== field) : now,
    );
  const setError = (error: BuilderError | undefined) => setErrors(error ? [error] : []);
  const formulaError = errorOf("formula");
  // A second click (or Enter) before React re-renders the disabled button: one request only.
  const inFlight = useRef(false);
  const busy = changes.create.isPending || changes.update.isPending || changes.remove.isPending;
  // A field's change handler: the new value, and the server's word on that field gone.
  const edited =
    <T,>(field: BuilderError["field"], set: (value: T) => void) =>
    (value: T) => {
      set(value);
      clearError(field);
    };

  // After a formula error, the caret goes to the place it names.
  useEffect(() => {
    const input = formulaInput.current;
    if (formulaError?.position === undefined || !input) return;
    const at = Math.min(formulaError.position - 1, input.value.length);
    input.focus();
    input.setSelectionRange(at, at + 1);
  }, [formulaError]);

  const applyTemplate = () => {
    const made = fromTemplate(kind, choices);
    if (typeof made === "string") {
      setTemplateProblem(made);
      return;
    }
    setTemplateProblem(undefined);
    setError(undefined);
    setName(made.name);
    setLegs(
      made.legs.map((leg) => ({
        name: leg.name,
        instrument: leg.instrument,
        lots: leg.lots === undefined ? "" : String(leg.lots),
      })),
    );
    setFormula(made.formula);
  };

  const failed = (cause: unknown) => {
    const text = failureText(cause, {
      fallback: spread ? "Failed to save the spread" : "Failed to create the spread",
      network: "Failed to save the spread. Please try again.",
    });
    setError(httpStatusOf(cause) === 400 ? builderError(text) : { field: "form", text });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    setError(undefined);
    const local = localErrors(name, formula, legs);
    if (local.length > 0) {
      // The server would name only the first; every one is shown before anything is sent.
      inFlight.current = false;
      setErrors(local);
      return;
    }
    const fields = {
      name,
      legs: legs.map((leg) => ({
        name: leg.name.trim(),
        instrument: leg.instrument,
        ...(leg.lots !== "" && { lots: Number(leg.lots) }),
      })),
      formula,
      ...(isAdmin && { shared }),
    };
    const onSettled = () => {
      inFlight.current = false;
    };
    if (spread) {
      changes.update.mutate(
        { id: spread.id, ...fields },
        {
          onSettled,
          onError: failed,
          onSuccess: (saved) => {
            onClose();
            const kept = saved.alertsKept;
            flashMessage(
              kept > 0
                ? `Saved “${saved.name}”; its ${kept === 1 ? "alert is" : `${kept} alerts are`} kept.`
                : `Saved “${saved.name}”.`,
            );
          },
        },
      );
    } else {
      // Belt and braces with the guard above: a retry of the same contents is the same spread.
      const idempotencyKey = submission.keyFor(fields);
      changes.create.mutate(
        { ...fields, idempotencyKey },
        {
          onSettled,
          onError: failed,
          onSuccess: (created) => {
            submission.done();
            onClose();
            flashMessage(`Created “${created.name}” (${created.symbol}).`);
          },
        },
      );
    }
  };

  const remove = () => {
    if (!spread || inFlight.current) return;
    if (!window.confirm(deleteQuestion(spread.name, alertCount, spread.shared))) return;
    inFlight.current = true;
    const settled = () => {
      inFlight.current = false;
    };
    const failed = (cause: unknown) =>
      setError({ field: "form", text: failureText(cause, { fallback: "Failed to delete" }) });
    const deleted = () => {
      onClose();
      flashMessage(`Deleted “${spread.name}”.`);
    };
    const withAlerts = () =>
      changes.remove.mutate(
        { id: spread.id, confirm: true },
        { onSettled: settled, onError: failed, onSuccess: deleted },
      );
    // Asked without `confirm` first: the server deletes a spread no alert uses, and otherwise
    // answers 409 with how many alerts it would delete. That count is everyone's (other users'
    // alerts on a shared spread too), which the question above could only guess from the
    // user's own: when it differs, the user is asked again with the server's number.
    changes.remove.mutate(
      { id: spread.id, confirm: false },
      {
        onSuccess: () => {
          settled();
          deleted();
        },
        onError: (cause) => {
          const alerts = httpStatusOf(cause) === 409 ? errorNumberOf(cause, "alerts") : undefined;
          if (alerts === undefined) {
            settled();
            failed(cause);
          } else if (
            alerts === alertCount ||
            window.confirm(alertsDeleteQuestion(spread.name, alerts, alertCount))
          ) {
            withAlerts();
          } else {
            settled();
          }
        },
      },
    );
  };

  return (
    <ModalForm
      className="spread-builder"
      title={
        spread ? (
          <>
            Edit spread <span className="modal__symbol">{spread.symbol}</span>
          </>
        ) : (
          "New spread"
        )
      }
      onClose={onClose}
      onSubmit={submit}
      namedForm
    >
      <details className="spread-builder__templates" open={!spread}>
        <summary>Start from a template</summary>
        <TemplatePicker
          kind={kind}
          choices={choices}
          instruments={instruments}
          onKind={(k) => {
            setKind(k);
            setTemplateProblem(undefined);
          }}
          onChoices={(c) => {
            setChoices(c);
            setTemplateProblem(undefined);
          }}
          onApply={applyTemplate}
          problem={templateProblem}
        />
      </details>
      <Field
        label="Name"
        value={name}
        onChange={edited("name", setName)}
        maxLength={60}
        aria-invalid={errorOf("name") ? true : undefined}
      />
      {errorOf("name") && (
        <p className="field__error" role="alert" data-field="name-error">
          {errorOf("name")?.text}
        </p>
      )}
      <LegsEditor
        legs={legs}
        instruments={instruments}
        onChange={edited("legs", setLegs)}
        error={errorOf("legs")}
      />
      <FormulaField
        inputRef={formulaInput}
        value={formula}
        // The marked position is of the formula as sent: an edit makes it stale.
        onChange={edited("formula", setFormula)}
        error={formulaError?.text}
        position={formulaError?.position}
      />
      {isAdmin && <Checkbox label="Share with everyone" checked={shared} onChange={setShared} />}
      {errorOf("form") && (
        <p className="field__error" role="alert" data-field="form-error">
          {errorOf("form")?.text}
        </p>
      )}
      <DialogActions
        submit={spread ? "Save spread" : "Create spread"}
        onCancel={onClose}
        busy={busy}
        onDelete={spread && remove}
      />
    </ModalForm>
  );
}
