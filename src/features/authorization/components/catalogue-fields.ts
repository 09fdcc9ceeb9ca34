import * as v from "valibot";

/** A permission's or a role's description: optional, at most 512 characters (the services' bound). */
export const DESCRIPTION_MAX = 512;

export const DescriptionSchema = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(DESCRIPTION_MAX, `A description is at most ${DESCRIPTION_MAX} characters`),
);
