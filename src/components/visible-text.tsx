// Bidirectional overrides and isolates, zero-width and other invisible format characters: they can make a
// value read backwards or hide part of it, so each is shown as a visible marker instead.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is made visible
const INVISIBLE = /([\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u00ad]|[\u0000-\u0008\u000b-\u001f\u007f])/;

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Text from a server, shown as text whatever it holds: markup stays characters (React escapes it), and
 * direction overrides and invisible characters appear as `⟨U+202E⟩` markers. The whole is isolated, so
 * right-to-left text inside cannot reorder what surrounds it.
 */
export function VisibleText({ text }: { text: string }) {
  const parts = text.split(INVISIBLE);
  return (
    <bdi className="visible-text">
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <mark key={index} className="visible-text__control" title={`Invisible character ${codePoint(part)}`}>
            ⟨{codePoint(part)}⟩
          </mark>
        ) : (
          part
        ),
      )}
    </bdi>
  );
}
