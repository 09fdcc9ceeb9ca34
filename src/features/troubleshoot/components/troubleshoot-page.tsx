import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { CopyButton } from "../../../components/copy-button";
import { Spinner } from "../../../components/spinner";
import {
  diagnose,
  type Finding,
  type KeyPreflight,
  type OtherEnvironmentResult,
} from "../diagnostics/diagnose";
import { probeList, runProbes, type KeyToTest, type ProbeId, type ProbeResults } from "../diagnostics/probes";
import { journalEntries } from "../../../lib/request-journal";
import { buildReport } from "../diagnostics/report";
import { stepsOf, type Step } from "../diagnostics/steps";
import "./troubleshoot.css";

export interface EnvironmentOption {
  id: string;
  name: string;
  baseUrl: string;
  apiId?: string | undefined;
}

export interface TroubleshootPageProps {
  /** The base URL under test: the stored one, or the one key entry would suggest. */
  baseUrl: string;
  apiId?: string | undefined;
  /** The key stored in this tab, or null. Never shown, never put in the report. */
  storedKey: string | null;
  /** The stored key as it may be shown, e.g. `ks_root_…`. */
  storedKeyMasked: string | null;
  environmentName: string | null;
  /** The other saved environments, to try the key in on request. */
  otherEnvironments: readonly EnvironmentOption[];
  /** The key-entry checks, for the reason a pasted key is malformed. */
  preflight: (input: string) => KeyPreflight;
  onSwitchEnvironment: (id: string) => void;
  pageOrigin: string;
}

interface Run {
  ranAt: Date;
  results: Partial<ProbeResults>;
  running: ProbeId | null;
  finished: boolean;
  key: KeyToTest | null;
  keyDescription: string;
  preflight: KeyPreflight | null;
}

/**
 * Run diagnostics: three probes against the base URL, each shown as a step, then the cause in one sentence
 * with the fix, and a report to copy into a support ticket.
 */
export function TroubleshootPage(props: TroubleshootPageProps) {
  const { baseUrl, apiId, storedKey, storedKeyMasked, environmentName, otherEnvironments, preflight, pageOrigin } = props;
  const [keyInput, setKeyInput] = useState("");
  const [asHeader, setAsHeader] = useState(false);
  const [run, setRun] = useState<Run | null>(null);
  const [others, setOthers] = useState<{ results: OtherEnvironmentResult[]; trying: string | null }>({ results: [], trying: null });
  const abortRef = useRef<AbortController | null>(null);
  const findingRef = useRef<HTMLHeadingElement>(null);
  const id = useId();

  const running = run !== null && !run.finished;
  const hasKey = run?.key !== null && run?.key !== undefined;
  const steps: Step[] = run ? stepsOf(run.results, run.running, hasKey, run.finished) : stepsOf({}, null, keyInput !== "" || storedKey !== null, false);

  const finding: Finding | null = useMemo(() => {
    if (!run?.finished || !run.results.reach) return null;
    const results: ProbeResults = { reach: run.results.reach, withoutKey: run.results.withoutKey ?? null, withKey: run.results.withKey ?? null };
    return diagnose(results, {
      baseUrl,
      apiId,
      pageOrigin,
      preflight: run.preflight,
      asHeader: run.key?.asHeader ?? false,
      otherEnvironmentCount: otherEnvironments.length,
      otherEnvironments: others.results,
    });
  }, [run, baseUrl, apiId, pageOrigin, otherEnvironments.length, others.results]);

  // A new diagnosis takes focus, so keyboard and screen-reader users (and the viewport) land on the answer.
  useEffect(() => {
    if (finding) findingRef.current?.focus();
  }, [finding]);

  const report = useMemo(() => {
    if (!run || !finding) return null;
    return buildReport({
      ranAt: run.ranAt,
      baseUrl,
      apiId,
      environmentName,
      keyDescription: run.keyDescription,
      steps,
      finding,
      secrets: [run.key?.value ?? "", storedKey ?? ""].filter((secret) => secret !== ""),
      journal: journalEntries(),
    });
  }, [run, finding, baseUrl, apiId, environmentName, steps, storedKey]);

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    abortRef.current?.abort();
    const controller = new AbortController();
    abortRef.current = controller;
    // The pasted text goes out exactly as typed, so that its mistakes reach the API and can be named.
    const key: KeyToTest | null =
      keyInput !== "" ? { value: keyInput, asHeader } : storedKey !== null ? { value: storedKey, asHeader: false } : null;
    const keyDescription =
      keyInput !== ""
        ? `a pasted ${asHeader ? "Authorization value" : "key"} (not stored)`
        : storedKey !== null
          ? `the stored key (${storedKeyMasked ?? "masked"})`
          : "none";
    const initial: Run = {
      ranAt: new Date(),
      results: {},
      running: null,
      finished: false,
      key,
      keyDescription,
      preflight: key === null ? null : preflight(key.value),
    };
    setRun(initial);
    setOthers({ results: [], trying: null });
    try {
      const results = await runProbes(
        { baseUrl, apiId },
        key,
        (probe, state, partial) => {
          if (controller.signal.aborted) return;
          setRun((current) => (current === null ? current : { ...current, results: partial, running: state === "running" ? probe : null }));
        },
        { signal: controller.signal },
      );
      if (controller.signal.aborted) return;
      setRun((current) => (current === null ? current : { ...current, results, running: null, finished: true }));
    } catch {
      // Aborted by a newer run: that run owns the screen now.
    }
  }

  async function tryIn(environment: EnvironmentOption) {
    if (!run?.key || others.trying !== null) return;
    // The try belongs to this run: a newer run aborts it, and its answer must not land beside another key's steps.
    const controller = abortRef.current;
    setOthers((current) => ({ ...current, trying: environment.id }));
    let outcome: Awaited<ReturnType<typeof probeList>>;
    try {
      outcome = await probeList({ baseUrl: environment.baseUrl, apiId: environment.apiId }, run.key, {
        signal: controller?.signal,
      });
    } catch {
      return; // Aborted by a newer run, which has reset the tries.
    }
    if (controller !== abortRef.current || controller?.signal.aborted) return;
    setOthers((current) => ({
      trying: null,
      results: [...current.results.filter((result) => result.id !== environment.id), { id: environment.id, name: environment.name, outcome }],
    }));
  }

  const triedIds = new Set(others.results.map((result) => result.id));

  return (
    <div className="troubleshoot">
      <div className="troubleshoot__intro">
        <h1>Troubleshoot</h1>
        <p>
          Keyscope sends three requests to find out why a key is refused: whether anything answers, whether the API asks
          for credentials, and what it says to the key.
        </p>
      </div>

      <form className="troubleshoot__form" onSubmit={(event) => void start(event)} aria-label="Run diagnostics">
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
            {storedKey !== null ? "Leave empty to test the stored key. " : ""}A key pasted here is sent exactly as pasted, so
            mistakes show, and is never stored.
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
        <ol className="troubleshoot__steps">
          {steps.map((step, index) => (
            <li key={step.id} className={`troubleshoot-step troubleshoot-step--${step.status}`}>
              <span className="troubleshoot-step__number" aria-hidden="true">
                {index + 1}
              </span>
              <div className="troubleshoot-step__body">
                <p className="troubleshoot-step__title">{step.title}</p>
                <p className="troubleshoot-step__result">
                  <span className={`troubleshoot-step__status troubleshoot-step__status--${step.status}`}>
                    {step.status === "running" ? <Spinner /> : null}
                    {STATUS_TEXT[step.status]}
                  </span>
                  {step.result && step.status !== "running" && <span>{step.result}</span>}
                </p>
                <StepFacts step={step} />
              </div>
            </li>
          ))}
        </ol>
      </section>

      <div aria-live="polite" className="troubleshoot__live">
        {finding && run && (
          <section className={`troubleshoot-finding troubleshoot-finding--${finding.tone}`} aria-labelledby={`${id}-finding`}>
            <h2 id={`${id}-finding`} ref={findingRef} tabIndex={-1} className="troubleshoot-finding__heading">
              Diagnosis
            </h2>
            <p className="troubleshoot-finding__summary" data-cause={finding.cause}>
              {finding.summary}
            </p>
            <p className="troubleshoot-finding__fix">
              <strong>Fix: </strong>
              {finding.fix}
            </p>
            {finding.command && (
              <figure className="troubleshoot-finding__command">
                <figcaption>{finding.command.caption}</figcaption>
                <div className="troubleshoot-finding__command-body">
                  <pre>
                    <code>{finding.command.text}</code>
                  </pre>
                  <CopyButton value={finding.command.text} label="Copy the command" />
                </div>
              </figure>
            )}
            {finding.offerOtherEnvironments && run.key && (
              <div className="troubleshoot-finding__others">
                <p>Is this key from another environment? Keyscope sends it there only if you ask:</p>
                <ul>
                  {otherEnvironments.map((environment) => {
                    const tried = others.results.find((result) => result.id === environment.id);
                    return (
                      <li key={environment.id}>
                        <button
                          type="button"
                          className="button button--small"
                          onClick={() => void tryIn(environment)}
                          disabled={others.trying !== null}
                        >
                          {others.trying === environment.id ? <Spinner /> : null}
                          Try this key in {environment.name}
                        </button>
                        {tried && triedIds.has(environment.id) && (
                          <span className="troubleshoot-finding__tried">
                            {tried.outcome.kind === "keys" ? "Works there" : "Refused there too"}
                          </span>
                        )}
                      </li>
                    );
                  })}
                </ul>
              </div>
            )}
            {finding.workingEnvironment && (
              <button
                type="button"
                className="button button--primary"
                onClick={() => finding.workingEnvironment && props.onSwitchEnvironment(finding.workingEnvironment.id)}
              >
                Switch to {finding.workingEnvironment.name}
              </button>
            )}
            {report && (
              <div className="troubleshoot-finding__report">
                <CopyButton value={report} label="Copy report" text="Copy report" />
                <span>A Markdown report for a support ticket, without the key.</span>
              </div>
            )}
          </section>
        )}
      </div>
    </div>
  );
}

const STATUS_TEXT: Record<Step["status"], string> = {
  pending: "Pending",
  running: "Running",
  pass: "Pass",
  fail: "Fail",
  skipped: "Skipped",
};

function StepFacts({ step }: { step: Step }) {
  if (step.httpStatus === null && step.code === null && step.requestId === null && step.ms === null && step.docsUrl === null) return null;
  return (
    <dl className="troubleshoot-step__facts">
      {step.httpStatus !== null && (
        <div>
          <dt>HTTP</dt>
          <dd>{step.httpStatus}</dd>
        </div>
      )}
      {step.code !== null && (
        <div>
          <dt>Code</dt>
          <dd>
            <code>{step.code}</code>
          </dd>
        </div>
      )}
      {step.requestId !== null && (
        <div>
          <dt>Request id</dt>
          <dd>
            <code>{step.requestId}</code>
          </dd>
        </div>
      )}
      {step.ms !== null && (
        <div>
          <dt>Time</dt>
          <dd>{step.ms} ms</dd>
        </div>
      )}
      {step.docsUrl !== null && (
        <div>
          <dt>Docs</dt>
          <dd>
            <a href={step.docsUrl} target="_blank" rel="noopener noreferrer">
              {step.code ?? "error docs"}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </dd>
        </div>
      )}
    </dl>
  );
}
