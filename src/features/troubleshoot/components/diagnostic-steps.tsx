import { Spinner } from "@/components/spinner";
import type { Step } from "../diagnostics/steps";

const STATUS_TEXT: Record<Step["status"], string> = {
  pending: "Pending",
  running: "Running",
  pass: "Pass",
  fail: "Fail",
  skipped: "Skipped",
};

/** The probes of a run, one numbered step each, with what came back. */
export function DiagnosticSteps({ steps }: { steps: readonly Step[] }) {
  return (
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
                {/* The badge stands apart by the row's gap; the colon is for reading it as one phrase, not to be seen a space away. */}
                {step.result && step.status !== "running" && <span className="visually-hidden">: </span>}
              </span>
              {step.result && step.status !== "running" && <span>{step.result}</span>}
            </p>
            <StepFacts step={step} />
          </div>
        </li>
      ))}
    </ol>
  );
}

function StepFacts({ step }: { step: Step }) {
  if (
    step.httpStatus === null &&
    step.code === null &&
    step.requestId === null &&
    step.ms === null &&
    step.docsUrl === null
  )
    return null;
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
