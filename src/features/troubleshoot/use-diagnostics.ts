import { useMemo, useRef, useState } from "react";
import { toKeyscopeError } from "../../lib/api-errors";
import { checkKey, type KeyCheck } from "../../lib/check-key";
import { diagnose, type Finding, type OtherEnvironmentResult } from "./diagnostics/diagnose";
import { probeList, runProbes, type KeyToTest, type ProbeId, type ProbeResults } from "./diagnostics/probes";
import { journalEntries } from "../../lib/request-journal";
import { buildReport } from "./diagnostics/report";
import { stepsOf, type Step } from "./diagnostics/steps";

export interface EnvironmentOption {
  id: string;
  name: string;
  baseUrl: string;
  apiId?: string | undefined;
}

export interface DiagnosticsTarget {
  baseUrl: string;
  apiId?: string | undefined;
  /** The key stored in this tab, or null. Never shown, never put in the report. */
  storedKey: string | null;
  /** The stored key as it may be shown, e.g. `ks_root_…`. */
  storedKeyMasked: string | null;
  environmentName: string | null;
  otherEnvironments: readonly EnvironmentOption[];
  pageOrigin: string;
}

interface Run {
  ranAt: Date;
  results: Partial<ProbeResults>;
  running: ProbeId | null;
  finished: boolean;
  key: KeyToTest | null;
  keyDescription: string;
  keyCheck: KeyCheck | null;
  /** What was pasted, sent or not: scrubbed from the report like the stored key. */
  pasted: string | null;
}

/**
 * A diagnostics run as state: the steps so far, the finding once it ends, the report, and trying the key in
 * the other environments. Every run ends with a finding, whatever fails inside it.
 */
export function useDiagnostics(target: DiagnosticsTarget) {
  const { baseUrl, apiId, storedKey, storedKeyMasked, environmentName, otherEnvironments, pageOrigin } = target;
  const [run, setRun] = useState<Run | null>(null);
  const [others, setOthers] = useState<{ results: OtherEnvironmentResult[]; trying: string | null }>({
    results: [],
    trying: null,
  });
  const abortRef = useRef<AbortController | null>(null);

  const running = run !== null && !run.finished;
  // Before a run the steps are pending, whatever the key: only a finished run says why one was skipped.
  const steps: Step[] = run
    ? stepsOf(
        run.results,
        run.running,
        run.keyCheck === null ? "none" : run.keyCheck.ok ? "given" : "refused",
        run.finished,
      )
    : stepsOf({}, null, "none", false);

  const finding: Finding | null = useMemo(() => {
    if (!run?.finished || !run.results.reach) return null;
    const results: ProbeResults = {
      reach: run.results.reach,
      withoutKey: run.results.withoutKey ?? null,
      withKey: run.results.withKey ?? null,
    };
    return diagnose(results, {
      baseUrl,
      apiId,
      pageOrigin,
      keyCheck: run.keyCheck,
      asHeader: run.key?.asHeader ?? false,
      otherEnvironmentCount: otherEnvironments.length,
      otherEnvironments: others.results,
    });
  }, [run, baseUrl, apiId, pageOrigin, otherEnvironments.length, others.results]);

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
      secrets: [run.pasted ?? "", storedKey ?? ""],
      journal: journalEntries(),
    });
  }, [run, finding, baseUrl, apiId, environmentName, steps, storedKey]);

  async function start(keyInput: string, asHeader: boolean) {
    abortRef.current?.abort();
    const controller = new AbortController();
    abortRef.current = controller;
    // The pasted text goes out exactly as typed, so that its mistakes reach the API and can be named, unless key
    // entry's checks already refuse it: then it is not sent at all.
    const pasted = keyInput !== "" ? { value: keyInput, asHeader } : null;
    const keyCheck = pasted === null ? (storedKey === null ? null : checkKey(storedKey)) : checkKey(keyInput);
    const key: KeyToTest | null =
      keyCheck !== null && !keyCheck.ok
        ? null
        : (pasted ?? (storedKey !== null ? { value: storedKey, asHeader: false } : null));
    const keyDescription =
      pasted !== null
        ? `a pasted ${asHeader ? "Authorization value" : "key"} (not stored)`
        : storedKey !== null
          ? `the stored key (${storedKeyMasked ?? "masked"})`
          : "none";
    setRun({
      ranAt: new Date(),
      results: {},
      running: null,
      finished: false,
      key,
      keyDescription,
      keyCheck,
      pasted: pasted?.value ?? null,
    });
    setOthers({ results: [], trying: null });
    try {
      const results = await runProbes(
        { baseUrl, apiId },
        key,
        (probe, state, partial) => {
          if (controller.signal.aborted) return;
          setRun((current) =>
            current === null ? current : { ...current, results: partial, running: state === "running" ? probe : null },
          );
        },
        { signal: controller.signal, pageOrigin },
      );
      if (controller.signal.aborted) return;
      setRun((current) => (current === null ? current : { ...current, results, running: null, finished: true }));
    } catch (error) {
      // Aborted by a newer run: that run owns the screen now. Anything else still ends this run with a finding.
      if (controller.signal.aborted) return;
      const failure = toKeyscopeError(error, [keyInput, storedKey ?? ""]);
      setRun((current) =>
        current === null
          ? current
          : {
              ...current,
              results: { reach: { kind: "invalid", error: failure, ms: 0 } },
              running: null,
              finished: true,
            },
      );
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
      results: [
        ...current.results.filter((result) => result.id !== environment.id),
        { id: environment.id, name: environment.name, outcome },
      ],
    }));
  }

  return { run, running, steps, finding, report, others, start, tryIn };
}
