/**
 * Named rate limits as a form holds them (text, row by row) and the schema that reads them into what a request sends:
 * a key's (keys.createKey, keys.updateKey) and an identity's (identities.createIdentity, updateIdentity) take the same.
 */
import * as v from "valibot";
import {
  RatelimitDurationSchema,
  RatelimitLimitSchema,
  RatelimitNameSchema,
  type RatelimitInput,
} from "./api/key-fields";
import { decimalText, wholeNumberText } from "./field-text";

export interface RatelimitRow {
  name: string;
  limit: string;
  /** Seconds, as typed. */
  seconds: string;
  /** Checked against every verification, not only those that name it. */
  autoApply: boolean;
}

export const EMPTY_RATELIMIT: RatelimitRow = { name: "", limit: "", seconds: "", autoApply: true };

/** Rate limits as the form shows them. */
export function ratelimitRows(limits: readonly RatelimitInput[] | undefined): RatelimitRow[] {
  return (limits ?? []).map((limit) => ({
    name: limit.name,
    limit: String(limit.limit),
    seconds: String(limit.duration / 1000),
    autoApply: limit.autoApply ?? false,
  }));
}

/** A window in seconds, at least 1, to the millisecond: read into milliseconds. */
const WindowSecondsSchema = v.pipe(
  v.number(),
  v.minValue(1, "The window must be at least 1 second"),
  v.check((seconds) => Math.abs(Math.round(seconds * 1000) - seconds * 1000) < 1e-6, "Seconds to the millisecond"),
  v.transform((seconds) => Math.round(seconds * 1000)),
  RatelimitDurationSchema,
);

const RatelimitRowSchema = v.object({
  name: v.pipe(v.string(), v.trim()),
  limit: wholeNumberText(RatelimitLimitSchema),
  seconds: decimalText(WindowSecondsSchema),
  autoApply: v.boolean(),
});

/**
 * Named rate limits: a row left blank is none; a row begun needs a name, its requests and its window, and each name is
 * the key's (or identity's) once. Each problem at its row's field.
 */
export const RatelimitRowsSchema = v.pipe(
  v.array(RatelimitRowSchema),
  v.rawTransform(({ dataset, addIssue, NEVER }): RatelimitInput[] => {
    const limits: RatelimitInput[] = [];
    const named = new Set<string>();
    let problems = false;
    for (const [index, row] of dataset.value.entries()) {
      if (row.name === "" && row.limit === undefined && row.seconds === undefined) continue;
      let rowProblems = false;
      const at = (key: string, message: string) => {
        addIssue({
          message,
          path: [
            { type: "array", origin: "value", input: dataset.value, key: index, value: row },
            { type: "object", origin: "value", input: row, key, value: row[key as keyof typeof row] },
          ],
        });
        rowProblems = true;
      };
      const label = row.name === "" ? `Rate limit ${index + 1}` : `Rate limit ${row.name}`;
      const name = v.safeParse(RatelimitNameSchema, row.name);
      if (row.name === "") at("name", "Each rate limit needs a name");
      else if (!name.success) at("name", name.issues[0].message);
      else if (named.has(row.name)) at("name", `${label} is there twice: each needs its own name`);
      named.add(row.name);
      if (row.limit === undefined) at("limit", `${label}: requests must be a whole number of at least 1`);
      if (row.seconds === undefined)
        at("seconds", `${label}: the window must be at least 1 second (to the millisecond)`);
      if (rowProblems || row.limit === undefined || row.seconds === undefined) problems = true;
      else limits.push({ name: row.name, limit: row.limit, duration: row.seconds, autoApply: row.autoApply });
    }
    return problems ? NEVER : limits;
  }),
);
