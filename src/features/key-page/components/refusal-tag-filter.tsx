import { useId, useRef, useState, type FormEvent } from "react";

/** The tag the refused verifications are filtered by: typed, then applied (undefined: cleared). */
export function RefusalTagFilter({
  filtered,
  onFilter,
}: {
  /** A tag is applied: Clear is offered. */
  filtered: boolean;
  onFilter: (tag: string | undefined) => void;
}) {
  const id = useId();
  const [input, setInput] = useState("");
  const field = useRef<HTMLInputElement>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onFilter(input.trim() === "" ? undefined : input.trim());
  }

  return (
    <form className="refusals__filter" onSubmit={submit} aria-label="Filter refused verifications by tag">
      <label htmlFor={`${id}-tag`} className="field__label">
        Tag
      </label>
      <input
        id={`${id}-tag`}
        ref={field}
        className="input"
        value={input}
        onChange={(event) => setInput(event.target.value)}
        placeholder="path=/api/users"
        autoComplete="off"
        spellCheck={false}
        aria-describedby={`${id}-tag-hint`}
      />
      <button type="submit" className="button">
        Filter
      </button>
      {filtered && (
        <button
          type="button"
          className="button"
          onClick={() => {
            setInput("");
            onFilter(undefined);
            // This button goes with the filter: the focus goes back where a tag is typed.
            field.current?.focus();
          }}
        >
          Clear
        </button>
      )}
      <p id={`${id}-tag-hint`} className="field__hint">
        Only verifications that carried exactly this tag.
      </p>
    </form>
  );
}
