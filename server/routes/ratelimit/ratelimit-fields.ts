import * as v from "valibot";
import { KEY_FIELD_BOUNDS } from "../../../src/lib/contract";

/** The body fields the rate-limit operations share, with the real service's bounds (its OpenAPI description). */

const TEXT_MAX_LENGTH = 512;
/** A window's bounds, milliseconds: a second to 30 days. */
export const DURATION_MIN = 1000;
export const LIMIT_DURATION_MAX = 2_592_000_000;

function text(field: string) {
  return v.pipe(
    v.string(`${field} is required and must be a string`),
    v.minLength(1, `${field} must not be empty`),
    v.maxLength(TEXT_MAX_LENGTH, `${field} must be at most ${TEXT_MAX_LENGTH} characters`),
  );
}

export function wholeNumber(field: string, min: number, max: number = KEY_FIELD_BOUNDS.wholeNumberMax) {
  return v.pipe(
    v.number(`${field} is required and must be a number`),
    v.integer(`${field} must be a whole number`),
    v.minValue(min, `${field} must be at least ${min}`),
    v.maxValue(max, `${field} must be at most ${max}`),
  );
}

export const namespaceField = text("namespace");
export const identifierField = text("identifier");

export const NAMESPACE_FIX = "Pass the namespace's name, or its id (rlns_…).";
export const IDENTIFIER_FIX = "Pass who is limited: a user id, an IP address, an API key id… (up to 512 characters).";
export const OVERRIDE_IDENTIFIER_FIX =
  "Pass the override's identifier exactly as it was set, * wildcards included (such as premium_*).";
