import { useStore } from "@tanstack/react-form";
import { useState } from "react";
import * as v from "valibot";
import { ActionDialog, ANSWER_ON_ITS_WAY } from "@/components/action-dialog";
import { useAppForm } from "@/components/form/app-form";
import { FormEnd } from "@/components/form/form-end";
import { useProblemFocus } from "@/components/form/use-problem-focus";
import { SafeName } from "@/components/safe-name";
import type { RatelimitOverride } from "@/lib/api/ratelimit-override";
import type { Connection } from "@/lib/api/transport";
import { overrideMatches } from "@/lib/contract";
import { wholeNumberText } from "@/lib/field-text";
import { useSetOverride } from "../api/overrides";
import { isPattern, limitWords, WINDOW_UNITS, windowParts, type WindowUnit } from "../override-words";
import { useKnownAllowed, useRefusal } from "../refusals";
import { NamespacePermissionNeeded, NamespaceUnknownPermission } from "./namespace-permission";
import type { RenderError } from "./namespaces-page";

/** The most characters the service keeps of an override's identifier (its RatelimitOverride answers at most 255). */
export const OVERRIDE_IDENTIFIER_MAX = 255;

const IdentifierText = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, "Type who it is for: an identifier, or a pattern such as team_*"),
  v.maxLength(OVERRIDE_IDENTIFIER_MAX, `At most ${OVERRIDE_IDENTIFIER_MAX} characters`),
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  v.check((text) => !/[\u0000-\u001f\u007f]/.test(text), "No line breaks or control characters"),
);

const LimitText = v.pipe(
  wholeNumberText(
    v.pipe(v.number(), v.minValue(0, "0 or more (0 blocks)"), v.maxValue(Number.MAX_SAFE_INTEGER, "Too large")),
  ),
  v.number("Type how many requests a window allows: 0 blocks"),
);

const CountText = v.pipe(
  wholeNumberText(v.pipe(v.number(), v.minValue(1, "At least 1"), v.maxValue(1_000_000, "At most 1,000,000"))),
  v.number("Type the window’s length, such as 1 (minute)"),
);

const OverrideFormSchema = v.object({
  identifier: IdentifierText,
  limit: LimitText,
  windowCount: CountText,
  windowUnit: v.picklist(WINDOW_UNITS.map((unit) => unit.value)),
});

const UNIT_OPTIONS = WINDOW_UNITS.map((unit) => ({ value: unit.value, label: unit.label }));

export interface OverrideDialogProps {
  connection: Connection;
  namespace: string;
  namespaceId: string | undefined;
  /** Changing one: its identifier stays, its limit and window are the form's. */
  editing?: RatelimitOverride | undefined;
  /** Setting one for an identifier chosen elsewhere (one blocked most, say). */
  identifier?: string | undefined;
  /** The overrides loaded, to say what a new one would replace or be outranked by. */
  overrides: readonly RatelimitOverride[];
  /** Identifiers seen in the history, to say which a pattern would apply to. */
  seenIdentifiers: readonly string[];
  renderError: RenderError;
  onClose: () => void;
  onSaved: (identifier: string, words: string) => void;
}

/**
 * Set an override (or change one): who it is for, an identifier or a pattern with `*`; how many requests a window
 * allows, 0 to block; the window. Whether the root key may set overrides is known only by trying (after the service's
 * check there is only the write): the form says so until an answer tells.
 */
export function OverrideDialog({
  connection,
  namespace,
  namespaceId,
  editing,
  identifier,
  overrides,
  seenIdentifiers,
  renderError,
  onClose,
  onSaved,
}: OverrideDialogProps) {
  const mutation = useSetOverride(connection, namespace);
  const refused = useRefusal(connection, "set_override", namespace);
  const knownAllowed = useKnownAllowed(connection, "set_override", namespace);
  const [problem, setProblem] = useState<string | null>(null);
  const { formRef, focusFirstProblem } = useProblemFocus(setProblem);
  const initialWindow =
    editing === undefined ? { count: 1, unit: "minute" as WindowUnit } : windowParts(editing.duration);
  const form = useAppForm({
    defaultValues: {
      identifier: editing?.identifier ?? identifier ?? "",
      limit: editing === undefined ? "" : String(editing.limit),
      windowCount: String(initialWindow?.count ?? 1),
      windowUnit: initialWindow?.unit ?? "minute",
    },
    validators: { onChange: OverrideFormSchema },
    onSubmit: ({ value }) => {
      const parsed = v.safeParse(OverrideFormSchema, value);
      if (!parsed.success) return;
      setProblem(null);
      const { identifier: who, limit, windowCount, windowUnit } = parsed.output;
      const unitMs = WINDOW_UNITS.find((unit) => unit.value === windowUnit)?.ms ?? 60_000;
      const duration = windowCount * unitMs;
      mutation.mutate(
        { identifier: who, limit, duration },
        { onSuccess: () => onSaved(who, limitWords(limit, duration)) },
      );
    },
    onSubmitInvalid: focusFirstProblem,
  });
  const values = useStore(form.store, (state) => state.values);
  const typed = values.identifier.trim();
  const existing = editing === undefined ? overrides.find((override) => override.identifier === typed) : undefined;
  const matched = typed === "" ? [] : seenIdentifiers.filter((seen) => overrideMatches(seen, typed));
  const preview = v.safeParse(OverrideFormSchema, values);
  const previewWords = preview.success
    ? limitWords(
        preview.output.limit,
        preview.output.windowCount * (WINDOW_UNITS.find((unit) => unit.value === preview.output.windowUnit)?.ms ?? 0),
      )
    : null;

  return (
    <ActionDialog
      title={editing === undefined ? "Set an override" : "Change an override"}
      onClose={onClose}
      busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}
    >
      {refused !== undefined ? (
        <NamespacePermissionNeeded action="set_override" namespaceId={namespaceId} detail={refused.detail} />
      ) : (
        <form
          ref={formRef}
          className="action-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void form.handleSubmit();
          }}
        >
          {!knownAllowed && <NamespaceUnknownPermission action="set_override" namespaceId={namespaceId} />}
          {editing === undefined ? (
            <form.AppField name="identifier">
              {(field) => (
                <field.TextField
                  label="Identifier"
                  hint="Who it is for: an identifier (user_42, an IP address), or a pattern where * stands for any run of characters: team_* applies to team_acme and team_42, *@example.com to every address there."
                  spellCheck={false}
                  mono
                  maxLength={OVERRIDE_IDENTIFIER_MAX}
                />
              )}
            </form.AppField>
          ) : (
            <p>
              For{" "}
              <code>
                <SafeName>{editing.identifier}</SafeName>
              </code>{" "}
              (its identifier stays: to override another, set a new one and delete this), now{" "}
              {limitWords(editing.limit, editing.duration)}.
            </p>
          )}
          <p className="override-dialog__matches" role="status">
            {existing !== undefined && (
              <>
                <code>
                  <SafeName>{existing.identifier}</SafeName>
                </code>{" "}
                has an override already ({limitWords(existing.limit, existing.duration)}): saving changes it, and it
                keeps its id.{" "}
              </>
            )}
            {typed !== "" && isPattern(typed) && (
              <>
                {matched.length === 0
                  ? "It applies to none of the identifiers in this page’s history."
                  : `It applies to ${matched.length} of the identifiers in this page’s history: ${matched.slice(0, 5).join(", ")}${matched.length > 5 ? "…" : ""}.`}{" "}
                An override set for exactly an identifier still wins over it, and of several patterns the one with the
                most characters besides * does.
              </>
            )}
          </p>
          <form.AppField name="limit">
            {(field) => (
              <field.NumberField
                label="Requests per window"
                hint="0 blocks: every request that costs anything is refused."
                min={0}
              />
            )}
          </form.AppField>
          <div className="action-form__row">
            <form.AppField name="windowCount">{(field) => <field.NumberField label="Window" min={1} />}</form.AppField>
            <form.AppField name="windowUnit">
              {(field) => <field.SelectField label="Window unit" options={UNIT_OPTIONS} />}
            </form.AppField>
          </div>
          {previewWords !== null && (
            <p className="override-dialog__preview">
              The override: <strong>{previewWords}</strong>, from the next <code>ratelimit.limit</code> on, whatever
              limit the request asks for.
            </p>
          )}
          <FormEnd
            problem={problem}
            error={mutation.isError && renderError(mutation.error, () => void form.handleSubmit())}
            pending={mutation.isPending}
            label={editing === undefined ? "Set override" : "Save override"}
            pendingLabel="Saving…"
          />
        </form>
      )}
    </ActionDialog>
  );
}
