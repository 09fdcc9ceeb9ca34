import { Spinner } from "@/components/spinner";
import type { Verdict } from "../refusal-sentence";
import "./key-verdict.css";

/** The one sentence that says why a key is refused now, if it is, in its tone; a spinner while its numbers come. */
export function KeyVerdictSentence({ verdict, pending }: { verdict: Verdict; pending: boolean }) {
  return (
    <p className={`key-verdict key-verdict--${verdict.tone}`} data-testid="key-verdict">
      {pending ? <Spinner /> : null}
      {verdict.text}
    </p>
  );
}
