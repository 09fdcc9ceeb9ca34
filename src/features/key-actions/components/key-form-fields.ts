/**
 * The key forms' fields as typed (text) and the schemas that read them into what the requests send: each value typed
 * is read, empty, or refused with its problem at its field, never read as something else. The bounds and the refill
 * rule are the request schemas' (src/lib/api/key-fields.ts); the text is read by src/lib/field-text.ts.
 */
import * as v from "valibot";
import type { CreditsUpdate } from "@/lib/api/key-changes";
import {
  CreditCountSchema,
  CreditsInputSchema,
  ExpiresSchema,
  ExternalIdSchema,
  KeyNameSchema,
  PermissionNameSchema,
  PrefixSchema,
  RefillAmountSchema,
  RefillDaySchema,
  RoleNameSchema,
  type CreditsInput,
  type RatelimitInput,
} from "@/lib/api/key-fields";
import { KEY_FIELD_BOUNDS, type KeyCredits } from "@/lib/contract";
import { dateTimeText, localDateTimeText, wholeNumberText } from "@/lib/field-text";
import { RatelimitRowsSchema, type RatelimitRow } from "@/lib/ratelimit-rows";

/** What a reader made of a form's text: the value, or the first problem, in words. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** `schema`'s reading of `input`, its first problem said when there is one. */
export function readWith<TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: v.InferInput<TSchema>,
): Parsed<v.InferOutput<TSchema>> {
  const parsed = v.safeParse(schema, input);
  return parsed.success ? { ok: true, value: parsed.output } : { ok: false, error: parsed.issues[0].message };
}

/** An issue of a rule across fields, said at `key` (where TanStack Form shows it beside its field). */
function issueAt(
  addIssue: (info: { message: string; path: [v.ObjectPathItem] }) => void,
  input: Record<string, unknown>,
  key: string,
  message: string,
) {
  addIssue({ message, path: [{ type: "object", origin: "value", input, key, value: input[key] }] });
}

/** A text field read by `schema` once trimmed; empty is none. */
function emptyIsNone(schema: v.GenericSchema<string, string>) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.rawTransform(({ dataset, addIssue, NEVER }): string | undefined => {
      if (dataset.value === "") return undefined;
      const parsed = v.safeParse(schema, dataset.value);
      if (parsed.success) return parsed.output;
      addIssue({ message: parsed.issues[0].message });
      return NEVER;
    }),
  );
}

/** The key's name: empty is none. */
export const NameTextSchema = emptyIsNone(KeyNameSchema);

/** The identity's external id: empty is none. */
export const ExternalIdTextSchema = emptyIsNone(ExternalIdSchema);

/** A new key's prefix: empty is none. */
export const PrefixTextSchema = emptyIsNone(PrefixSchema);

/** `a, b c` → ["a", "b", "c"], without repeats. */
export function splitNames(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter((name) => name !== ""))];
}

/** Names typed, comma or space separated, each read by `name` (a permission's, a role's). */
function namesText(name: v.GenericSchema<string, string>) {
  return v.pipe(
    v.string(),
    v.rawTransform(({ dataset, addIssue, NEVER }): string[] => {
      const names = splitNames(dataset.value);
      for (const one of names) {
        const parsed = v.safeParse(name, one);
        if (!parsed.success) {
          addIssue({ message: `“${one}”: ${parsed.issues[0].message.replace(/^A /, "a ")}` });
          return NEVER;
        }
      }
      return names;
    }),
  );
}

export const PermissionNamesTextSchema = namesText(PermissionNameSchema);
export const RoleNamesTextSchema = namesText(RoleNameSchema);

/** The latest expiry the service takes, as a time here and in UTC. */
function latestExpiry(): string {
  return `At most ${localDateTimeText(KEY_FIELD_BOUNDS.expiresMax).replace("T", " ")} here (2100-01-01 00:00 UTC), the latest expiry the service takes`;
}

/** Expires as the browser's date-and-time field has it, in the user's time zone; empty is never. In the future. */
export function expiresText(now: number) {
  return dateTimeText(
    v.pipe(
      v.number(),
      v.maxValue(KEY_FIELD_BOUNDS.expiresMax, latestExpiry()),
      v.minValue(now + 1, "Pick a time in the future"),
      ExpiresSchema,
    ),
  );
}

/** The `max` of the Expires field: the latest time the service takes, in the user's time zone. */
export function expiresFieldMax(): string {
  return localDateTimeText(KEY_FIELD_BOUNDS.expiresMax);
}

export type RefillChoice = "none" | "daily" | "monthly";

/** The credits fields as typed. */
export interface CreditsDraft {
  /** Empty: unlimited. */
  remaining: string;
  refill: RefillChoice;
  amount: string;
  /** A monthly refill's day of the month. */
  refillDay: string;
}

/** A key's credits as the form shows them; a new monthly refill starts on today's day (UTC, as the service counts). */
export function creditsDraft(credits: KeyCredits | undefined, now: number): CreditsDraft {
  const refill = credits?.remaining === null ? undefined : credits?.refill;
  return {
    remaining: credits?.remaining === undefined || credits.remaining === null ? "" : String(credits.remaining),
    refill: refill?.interval ?? "none",
    amount: refill === undefined ? "" : String(refill.amount),
    refillDay: String(refill?.refillDay ?? (new Date(now).getUTCDate() || 1)),
  };
}

/**
 * Credits: empty is unlimited; a refill needs a count to start with and an amount, a monthly one its day of the
 * month. Each problem at its field; the credits read are the request schema's (its refill rule).
 */
export const CreditsDraftSchema = v.pipe(
  v.object({
    remaining: wholeNumberText(CreditCountSchema),
    refill: v.picklist(["none", "daily", "monthly"]),
    amount: v.string(),
    refillDay: v.string(),
  }),
  v.rawTransform(({ dataset, addIssue, NEVER }): CreditsInput | undefined => {
    const draft = dataset.value;
    if (draft.refill === "none") return draft.remaining === undefined ? undefined : { remaining: draft.remaining };
    const amount = v.safeParse(wholeNumberText(RefillAmountSchema), draft.amount);
    const day = v.safeParse(wholeNumberText(RefillDaySchema), draft.refillDay);
    let problems = false;
    const at = (key: string, message: string) => {
      issueAt(addIssue, draft, key, message);
      problems = true;
    };
    if (draft.remaining === undefined) at("remaining", "A refill needs a number of credits to start with");
    if (!amount.success) at("amount", amount.issues[0].message);
    else if (amount.output === undefined) at("amount", "Say how many credits each refill gives");
    if (draft.refill === "monthly") {
      if (!day.success) at("refillDay", day.issues[0].message);
      else if (day.output === undefined) at("refillDay", "A monthly refill needs its day of the month, 1 to 31");
    }
    if (problems || draft.remaining === undefined || !amount.success || !day.success) return NEVER;
    const refill =
      draft.refill === "daily"
        ? { interval: draft.refill, amount: amount.output }
        : { interval: draft.refill, amount: amount.output, refillDay: day.output };
    // The request schema is the last word: the refill-day rule is its.
    const credits = v.safeParse(CreditsInputSchema, { remaining: draft.remaining, refill });
    if (credits.success) return credits.output;
    addIssue({ message: credits.issues[0].message });
    return NEVER;
  }),
);

/** The credits as the form has them read, or its first problem. */
export function parseCredits(draft: CreditsDraft): Parsed<CreditsInput | undefined> {
  return readWith(CreditsDraftSchema, draft);
}

/**
 * What keys.updateKey needs to go from credits `before` to `after` (undefined: unlimited), sending only the part that
 * changed: the remaining count alone, the refill alone, both, or `null` for unlimited. Undefined when nothing changed.
 */
export function creditsUpdate(
  before: KeyCredits | undefined,
  after: CreditsInput | undefined,
): CreditsUpdate | null | undefined {
  const limitedBefore = before !== undefined && before.remaining !== null;
  if (after === undefined) return limitedBefore ? null : undefined;
  const update: CreditsUpdate = {};
  if (!limitedBefore || before.remaining !== after.remaining) update.remaining = after.remaining;
  const refillBefore = limitedBefore ? before.refill : undefined;
  if (JSON.stringify(refillBefore ?? null) !== JSON.stringify(after.refill ?? null))
    update.refill = after.refill ?? null;
  return Object.keys(update).length === 0 ? undefined : update;
}

export function parseRatelimits(rows: readonly RatelimitRow[]): Parsed<RatelimitInput[]> {
  return readWith(RatelimitRowsSchema, [...rows]);
}

/** A field's reading that ignores its value while it is as the form opened (a key's past expiry, say). */
export const KEPT = Symbol("kept as the form opened");

/**
 * `schema`'s reading of a field, or KEPT while the field is as the form opened (`comparable` says what counts: a
 * name's spaces, a rate limit row nobody began).
 */
export function unlessAsOpened<TInput, TOutput>(
  schema: v.GenericSchema<TInput, TOutput>,
  opened: TInput,
  comparable: (value: TInput) => unknown = (value) => value,
) {
  return v.pipe(
    v.custom<TInput>(() => true),
    v.rawTransform(({ dataset, addIssue, NEVER }): TOutput | typeof KEPT => {
      if (JSON.stringify(comparable(dataset.value)) === JSON.stringify(comparable(opened))) return KEPT;
      const parsed = v.safeParse(schema, dataset.value);
      if (parsed.success) return parsed.output;
      for (const issue of parsed.issues) addIssue({ message: issue.message, ...(issue.path && { path: issue.path }) });
      return NEVER;
    }),
  );
}
