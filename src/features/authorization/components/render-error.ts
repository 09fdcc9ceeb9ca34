import type { ReactNode } from "react";

/** The app's readable panel for a failure (the troubleshoot feature's), with a Retry that repeats only what failed. */
export type RenderError = (error: unknown, onRetry: () => void) => ReactNode;
