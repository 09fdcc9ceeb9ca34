import { Fragment } from "react";

/**
 * Catalog text with `code` marked by backticks, as text and <code> elements: never HTML.
 * Only for the catalog's own sentences; server strings are rendered as they are.
 */
export function RichText({ text }: { text: string }) {
  const parts = text.split("`");
  // An odd part count means every backtick is paired; otherwise show the text untouched.
  if (parts.length % 2 === 0) return <>{text}</>;
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? <code key={index}>{part}</code> : <Fragment key={index}>{part}</Fragment>,
      )}
    </>
  );
}
