/** A small busy indicator; the words next to it say what is happening. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}
