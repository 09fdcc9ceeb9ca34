import { useState } from "react";
import type { ProbeAnswer } from "@/lib/access-probe";

/**
 * Opens a form once it is known the root key may take its action (a probe when unknown): a refusal is said instead
 * (the access memory learnt it, and the page's note reads it from there), as is an operation the service lacks.
 * `unknown` (no honest probe, or it failed) opens the form, which says so.
 */
export function useCheckedOpen() {
  const [checking, setChecking] = useState(false);
  const [missing, setMissing] = useState(false);
  async function open(probe: () => Promise<ProbeAnswer>, then: (answer: ProbeAnswer) => void) {
    if (checking) return;
    setChecking(true);
    const answer = await probe();
    setChecking(false);
    setMissing(answer === "missing");
    if (answer !== "refused" && answer !== "missing") then(answer);
  }
  return { checking, missing, open };
}
