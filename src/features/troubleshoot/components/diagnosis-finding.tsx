import { useEffect, useRef } from "react";
import { CopyButton } from "@/components/copy-button";
import { Spinner } from "@/components/spinner";
import type { Finding, OtherEnvironmentResult } from "../diagnostics/diagnose";
import type { EnvironmentOption } from "../use-diagnostics";
import { useSecondsUntil } from "@/lib/hooks/use-seconds-until";
import { RichText } from "./rich-text";

export interface DiagnosisFindingProps {
  finding: Finding;
  headingId: string;
  /** The key can be tried elsewhere (it was sent in this run). */
  canTryElsewhere: boolean;
  otherEnvironments: readonly EnvironmentOption[];
  others: { results: readonly OtherEnvironmentResult[]; trying: string | null };
  onTryIn: (environment: EnvironmentOption) => void;
  onSwitchEnvironment: (id: string) => void;
  report: string | null;
}

/** The cause in one sentence, the fix, a command to copy, the other environments to try, and the report. */
export function DiagnosisFinding(props: DiagnosisFindingProps) {
  const { finding, headingId, canTryElsewhere, otherEnvironments, others, onTryIn, onSwitchEnvironment, report } =
    props;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const secondsLeft = useSecondsUntil(finding.retryAt);

  // A new answer takes focus, so keyboard and screen-reader users (and the viewport) land on it: a run's (this mounts
  // when a run ends) or a try in another environment's. Not a finding redrawn because an environment was saved or
  // removed meanwhile (in another tab): that would pull the focus, and the typing, from where the user is.
  useEffect(() => {
    headingRef.current?.focus();
  }, [others.results]);

  return (
    <section className={`troubleshoot-finding troubleshoot-finding--${finding.tone}`} aria-labelledby={headingId}>
      <h2 id={headingId} ref={headingRef} tabIndex={-1} className="troubleshoot-finding__heading">
        Diagnosis
      </h2>
      <p className="troubleshoot-finding__summary" data-cause={finding.cause}>
        <RichText text={finding.summary} />
      </p>
      {finding.detail !== null && (
        <p className="troubleshoot-finding__detail">
          <RichText text={finding.detail} />
        </p>
      )}
      {secondsLeft !== null && (
        <p className="troubleshoot-finding__countdown" role="timer">
          {secondsLeft > 0 ? `Try again in ${secondsLeft} s` : "You can try again now"}
        </p>
      )}
      <p className="troubleshoot-finding__fix">
        <strong>Fix: </strong>
        <RichText text={finding.fix} />
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
      {finding.offerOtherEnvironments && canTryElsewhere && (
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
                    onClick={() => onTryIn(environment)}
                    disabled={others.trying !== null}
                  >
                    {others.trying === environment.id ? <Spinner /> : null}
                    Try this key in {environment.name}
                  </button>
                  {tried && (
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
          onClick={() => finding.workingEnvironment && onSwitchEnvironment(finding.workingEnvironment.id)}
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
  );
}
