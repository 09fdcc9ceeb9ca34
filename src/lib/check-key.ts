/**
 * What a pasted API key needs before it can go into `Authorization: Bearer <key>`:
 * harmless paste debris is removed (and the user told), anything ambiguous is refused with a reason.
 */

export type KeyFix = "trimmed-whitespace" | "removed-authorization-header" | "removed-bearer-prefix";

export type KeyProblem =
  | "empty"
  | "only-bearer"
  | "quoted"
  | "contains-quote"
  | "contains-line-break"
  | "contains-whitespace"
  | "contains-invisible-character"
  | "contains-non-ascii"
  | "masked";

export type KeyCheck =
  { ok: true; key: string; fixes: KeyFix[] } | { ok: false; problem: KeyProblem; reason: string; fixes: KeyFix[] };

export const KEY_FIX_MESSAGES: Record<KeyFix, string> = {
  "trimmed-whitespace": "Removed the spaces or line breaks around the key.",
  "removed-authorization-header":
    "Removed the pasted “Authorization: Bearer” text: Keyscope sends that header for you.",
  "removed-bearer-prefix": "Removed the “Bearer ” prefix: Keyscope adds it to the header for you.",
};

const AUTHORIZATION_HEADER = /^authorization\s*:\s*/i;
const BEARER_PREFIX = /^bearer(?:\s+|$)/i;
const QUOTES = `"'\`“”‘’«»`;
const LINE_BREAK = /[\r\n\u2028\u2029]/;
const WHITESPACE = /\s/;
// Zero-width and other format/control characters ride along with copies from chat apps and PDFs.
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;
const NON_ASCII = /[^\x21-\x7e]/u;

function refuse(problem: KeyProblem, reason: string, fixes: KeyFix[]): KeyCheck {
  return { ok: false, problem, reason, fixes };
}

function describeCharacter(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** "a space", "a tab", or the code point of another blank, as a person would look for it. */
function nameOfBlank(character: string): string {
  if (character === " ") return "a space";
  if (character === "\t") return "a tab";
  return `a blank character (${describeCharacter(character)})`;
}

export function checkKey(input: string): KeyCheck {
  const fixes: KeyFix[] = [];
  let key = input.trim();
  if (key !== input && key !== "") fixes.push("trimmed-whitespace");

  if (AUTHORIZATION_HEADER.test(key)) {
    key = key.replace(AUTHORIZATION_HEADER, "").replace(BEARER_PREFIX, "").trim();
    fixes.push("removed-authorization-header");
  } else if (BEARER_PREFIX.test(key)) {
    key = key.replace(BEARER_PREFIX, "").trim();
    fixes.push("removed-bearer-prefix");
  }

  if (key === "") {
    return fixes.includes("removed-bearer-prefix") || fixes.includes("removed-authorization-header")
      ? refuse("only-bearer", "Only the word “Bearer” was pasted. Paste the key that goes after it.", fixes)
      : refuse("empty", "Enter an API key.", []);
  }

  const first = key.at(0) ?? "";
  const last = key.at(-1) ?? "";
  if (key.length > 1 && QUOTES.includes(first) && QUOTES.includes(last)) {
    return refuse("quoted", `The key is wrapped in quotes (${first}…${last}). Paste only what is between them.`, fixes);
  }
  const quote = [...key].find((character) => QUOTES.includes(character));
  if (quote !== undefined) {
    return refuse(
      "contains-quote",
      `The key contains a quote (${quote}), which keys never do. Copy the key again without the surrounding code.`,
      fixes,
    );
  }

  if (LINE_BREAK.test(key)) {
    return refuse(
      "contains-line-break",
      "The key contains a line break, so more than the key was pasted (or it was wrapped). Paste the key on one line.",
      fixes,
    );
  }
  const space = WHITESPACE.exec(key);
  if (space) {
    return refuse(
      "contains-whitespace",
      `The key contains ${nameOfBlank(space[0])} after “${key.slice(0, Math.min(space.index, 8))}…”. Keys have no spaces: paste the key alone.`,
      fixes,
    );
  }

  const invisible = INVISIBLE.exec(key);
  if (invisible) {
    return refuse(
      "contains-invisible-character",
      `The key contains an invisible character (${describeCharacter(invisible[0])}) at position ${invisible.index + 1}, often added by chat apps or documents. Copy it again from the source.`,
      fixes,
    );
  }

  if (key.endsWith("…") || key.endsWith("...")) {
    return refuse(
      "masked",
      "This looks like a shortened key (it ends with “…”). Paste the whole key, as it was shown when it was created.",
      fixes,
    );
  }

  // Headers carry printable ASCII only; anything else was changed on the way (a smart dash, an accent).
  const foreign = NON_ASCII.exec(key);
  if (foreign) {
    return refuse(
      "contains-non-ascii",
      `The key contains “${foreign[0]}” (${describeCharacter(foreign[0])}) at position ${foreign.index + 1}, which keys never do. Copy it again from the source.`,
      fixes,
    );
  }

  return { ok: true, key, fixes };
}
