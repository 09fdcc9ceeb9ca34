import type { ReactNode } from "react";

/** The app's readable panel for a failed change (the troubleshoot feature's), with a Retry that repeats only it. */
export type RenderError = (error: unknown, onRetry: () => void) => ReactNode;
