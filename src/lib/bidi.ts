/**
 * Bidirectional control characters: invisible, yet they reorder the text around them, so that a name can
 * read as something it is not ("\u202Egnp.exe" shows as "exe.png"). Code hosts show them; so does Keyscope.
 * Our own few lines: the set is fixed by Unicode (explicit embeddings, overrides, isolates and marks).
 * A Map, not an object: a name such as "toString" must not find an inherited property.
 */
const CONTROL_NAMES: ReadonlyMap<string, string> = new Map([
  ["\u061C", "ARABIC LETTER MARK"],
  ["\u200E", "LEFT-TO-RIGHT MARK"],
  ["\u200F", "RIGHT-TO-LEFT MARK"],
  ["\u202A", "LEFT-TO-RIGHT EMBEDDING"],
  ["\u202B", "RIGHT-TO-LEFT EMBEDDING"],
  ["\u202C", "POP DIRECTIONAL FORMATTING"],
  ["\u202D", "LEFT-TO-RIGHT OVERRIDE"],
  ["\u202E", "RIGHT-TO-LEFT OVERRIDE"],
  ["\u2066", "LEFT-TO-RIGHT ISOLATE"],
  ["\u2067", "RIGHT-TO-LEFT ISOLATE"],
  ["\u2068", "FIRST STRONG ISOLATE"],
  ["\u2069", "POP DIRECTIONAL ISOLATE"],
]);

const CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
const CONTROLS_SPLIT = /([\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069])/;

export type BidiPart = { kind: "text"; text: string } | { kind: "control"; code: string; name: string };

export function hasBidiControls(text: string): boolean {
  return CONTROLS.test(text);
}

/** "U+202E" */
function codeOf(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The text cut into plain runs and the control characters between them. */
export function splitBidiControls(text: string): BidiPart[] {
  return text
    .split(CONTROLS_SPLIT)
    .filter((part) => part !== "")
    .map((part) => {
      const name = CONTROL_NAMES.get(part);
      return name === undefined ? { kind: "text", text: part } : { kind: "control", code: codeOf(part), name };
    });
}

/** For places that take only text (an option, a title, an accessible name): each control shown as ⟨U+202E⟩. */
export function revealBidiControls(text: string): string {
  return splitBidiControls(text)
    .map((part) => (part.kind === "text" ? part.text : `⟨${part.code}⟩`))
    .join("");
}
