import { useId, useState, type FormEvent } from "react";
import { Spinner } from "@/components/spinner";
import { useDiagnostics, type DiagnosticsTarget } from "../use-diagnostics";
import { DiagnosisFinding } from "./diagnosis-finding";
import { DiagnosticSteps } from "./diagnostic-steps";
import "./troubleshoot.css";

export type { EnvironmentOption } from "../use-diagnostics";

export interface TroubleshootPageProps extends DiagnosticsTarget {
  onSwitchEnvironment: (id: string) => void;
}

/**
 * Run diagnostics: three probes against the base URL, each shown as a step, then the cause in one sentence
 * with the fix, and a report to copy into a support ticket.
 */
export function TroubleshootPage(props: TroubleshootPageProps) {
  const { baseUrl, apiId, storedKey, storedKeyMasked, environmentName, otherEnvironments } = props;
  const [keyInput, setKeyInput] = useState("");
  const [asHeader, setAsHeader] = useState(false);
  const { run, running, steps, finding, report, others, start, tryIn } = useDiagnostics(props);
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void start(keyInput, asHeader);
  }

  return (
    <div className="troubleshoot">
      <div className="troubleshoot__intro">
        <h1>Troubleshoot</h1>
        <p>
          Keyscope sends three requests to find out why a key is refused: whether anything answers, whether the API asks
          for credentials, and what it says to the key.
        </p>
      </div>

      <form className="troubleshoot__form" onSubmit={submit} aria-label="Run diagnostics">
        <dl className="troubleshoot__target">
          <div>
            <dt>Base URL</dt>
            <dd>
              <code>{baseUrl === "" ? "this page's origin" : baseUrl}</code>
            </dd>
          </div>
          <div>
            <dt>Environment</dt>
            <dd>{environmentName ?? "Not a saved environment"}</dd>
          </div>
          {apiId && (
            <div>
              <dt>API ID</dt>
              <dd>
                <code>{apiId}</code>
              </dd>
            </div>
          )}
        </dl>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-key`}>
            Key to test
          </label>
          <input
            id={`${id}-key`}
            className="input input--mono"
            type="password"
            value={keyInput}
            onChange={(event) => setKeyInput(event.target.value)}
            placeholder={storedKey !== null ? `The stored key (${storedKeyMasked ?? "…"})` : "Paste a key to test"}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${id}-key-hint`}
          />
          <p className="field__hint" id={`${id}-key-hint`}>
            {storedKey !== null ? "Leave empty to test the stored key. " : ""}A key pasted here gets key entry&apos;s
            checks first; if they pass, it is sent exactly as pasted, so the API&apos;s answer shows any other mistake.
            It is never stored.
          </p>
          <label className="troubleshoot__checkbox">
            <input type="checkbox" checked={asHeader} onChange={(event) => setAsHeader(event.target.checked)} />
            Send what I paste as the whole <code>Authorization</code> value (to test a header from your code)
          </label>
        </div>
        <button type="submit" className="button button--primary troubleshoot__run" aria-disabled={running}>
          {running ? (
            <>
              <Spinner /> Running diagnostics…
            </>
          ) : (
            "Run diagnostics"
          )}
        </button>
      </form>

      <section aria-labelledby={`${id}-steps`} className="troubleshoot__steps-section">
        <h2 id={`${id}-steps`}>Steps</h2>
        <DiagnosticSteps steps={steps} />
      </section>

      <div aria-live="polite" className="troubleshoot__live">
        {finding && run && (
          <DiagnosisFinding
            finding={finding}
            headingId={`${id}-finding`}
            canTryElsewhere={run.key !== null}
            otherEnvironments={otherEnvironments}
            others={others}
            onTryIn={(environment) => void tryIn(environment)}
            onSwitchEnvironment={props.onSwitchEnvironment}
            report={report}
          />
        )}
      </div>
    </div>
  );
}
