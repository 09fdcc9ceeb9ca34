/**
 * The fields the key-changing operations send, as valibot schemas with the service's bounds (the contract's
 * KEY_FIELD_BOUNDS) and the words a person reads when a value is out of them: the forms read what was typed through
 * these, and the request types are theirs. The answers' credits are parsed with the same refill (./schemas).
 */
import * as v from "valibot";
import { KEY_FIELD_BOUNDS as BOUNDS } from "../contract";
import { formatCount } from "../format-number";

/** A whole number from `min` to `max` (at most 2^53 - 1, what a client reads exactly). */
export function wholeNumber(min: number, max: number = BOUNDS.wholeNumberMax) {
  return v.pipe(
    v.number(),
    v.integer("A whole number, without a fraction"),
    v.minValue(min, `At least ${formatCount(min)}`),
    v.maxValue(max, `At most ${formatCount(max)}`),
  );
}

/** Credits left; null (unlimited) is the request's own. */
export const CreditCountSchema = wholeNumber(0);
export const RefillAmountSchema = wholeNumber(1);
const REFILL_DAY_WORDS = `A day of the month, ${BOUNDS.refillDay.min} to ${BOUNDS.refillDay.max}`;
export const RefillDaySchema = v.pipe(
  v.number(),
  v.integer(REFILL_DAY_WORDS),
  v.minValue(BOUNDS.refillDay.min, REFILL_DAY_WORDS),
  v.maxValue(BOUNDS.refillDay.max, REFILL_DAY_WORDS),
);

/**
 * A refill: daily, or monthly on a day of the month. The refill-day rule, once: a monthly refill names its day (the
 * services refuse one without), a daily one names none (the real service refuses that too).
 */
export const RefillSchema = v.variant("interval", [
  v.strictObject({ interval: v.literal("daily"), amount: RefillAmountSchema }),
  v.strictObject({ interval: v.literal("monthly"), amount: RefillAmountSchema, refillDay: RefillDaySchema }),
]);
export type RefillInput = v.InferOutput<typeof RefillSchema>;

/** A key's credits as sent: a count to start from, and its refill (a refill needs a count, as the services say). */
export const CreditsInputSchema = v.strictObject({ remaining: CreditCountSchema, refill: v.optional(RefillSchema) });
export type CreditsInput = v.InferOutput<typeof CreditsInputSchema>;

/** Unix milliseconds, no later than the service takes (2100-01-01 00:00 UTC). */
export const ExpiresSchema = v.pipe(
  v.number(),
  v.integer("A whole number of milliseconds"),
  v.minValue(0, "Not before 1970"),
  v.maxValue(BOUNDS.expiresMax, "At most 2100-01-01 00:00 UTC, the latest expiry the service takes"),
);

export const KeyNameSchema = v.pipe(
  v.string(),
  v.maxLength(BOUNDS.nameMaxLength, `At most ${BOUNDS.nameMaxLength} characters`),
);

const PREFIX_WORDS = `Up to ${BOUNDS.prefix.maxLength} letters, digits or _`;
export const PrefixSchema = v.pipe(
  v.string(),
  v.regex(BOUNDS.prefix.pattern, PREFIX_WORDS),
  v.maxLength(BOUNDS.prefix.maxLength, PREFIX_WORDS),
);

export const ExternalIdSchema = v.pipe(
  v.string(),
  v.regex(BOUNDS.externalId.pattern, "Only letters, digits, _, . and -"),
  v.maxLength(BOUNDS.externalId.maxLength, `At most ${BOUNDS.externalId.maxLength} characters`),
);

export const PermissionNameSchema = v.pipe(
  v.string(),
  v.regex(BOUNDS.permission.pattern, "A permission name holds only letters, digits and _ : - . *"),
  v.maxLength(BOUNDS.permission.maxLength, `A permission name is at most ${BOUNDS.permission.maxLength} characters`),
);

export const RoleNameSchema = v.pipe(
  v.string(),
  v.maxLength(BOUNDS.roleMaxLength, `A role name is at most ${BOUNDS.roleMaxLength} characters`),
);

export const RatelimitNameSchema = v.pipe(
  v.string(),
  v.minLength(BOUNDS.ratelimitName.minLength, `A name of ${BOUNDS.ratelimitName.minLength} characters or more`),
  v.maxLength(BOUNDS.ratelimitName.maxLength, `At most ${BOUNDS.ratelimitName.maxLength} characters`),
);

export const RatelimitLimitSchema = wholeNumber(1);
export const RatelimitDurationSchema = wholeNumber(BOUNDS.ratelimitDurationMin);

export const RatelimitInputSchema = v.object({
  name: RatelimitNameSchema,
  limit: RatelimitLimitSchema,
  /** Milliseconds. */
  duration: RatelimitDurationSchema,
  autoApply: v.optional(v.boolean()),
});
export type RatelimitInput = v.InferOutput<typeof RatelimitInputSchema>;

/** The first problem `schema` finds with `value`, in its own words; undefined when there is none. */
export function problemOf(schema: v.GenericSchema, value: unknown): string | undefined {
  const parsed = v.safeParse(schema, value);
  return parsed.success ? undefined : parsed.issues[0].message;
}
