import { revealBidiControls, splitBidiControls } from "../lib/bidi";
import "./safe-name.css";

interface SafeNameProps {
  /** A name from the API or a user: a key's or an environment's name, a meta value. */
  children: string;
  className?: string | undefined;
  /** Also put the name in a tooltip (for names an ellipsis may cut). */
  withTitle?: boolean;
}

/**
 * A name shown as what it is: isolated from the text around it (`<bdi>`), and with any bidirectional control
 * characters inside it made visible as ⟨U+202E⟩ markers with a warning, instead of silently reordering it.
 */
export function SafeName({ children, className, withTitle = false }: SafeNameProps) {
  const parts = splitBidiControls(children);
  return (
    <bdi className={className} title={withTitle ? revealBidiControls(children) : undefined}>
      {parts.map((part, index) =>
        part.kind === "text" ? (
          part.text
        ) : (
          <span
            // The parts of one name never reorder.
            key={index}
            className="bidi-control"
            title={`Hidden text-direction character ${part.code} (${part.name}): shown here so that it cannot disguise the name`}
          >
            ⟨{part.code}⟩
          </span>
        ),
      )}
    </bdi>
  );
}
