import type { ServerErrorCode } from "./errors";

/** A change the request may not make, as the error envelope to answer; thrown so the transaction keeps nothing. */
export class ChangeRefused extends Error {
  constructor(
    readonly code: ServerErrorCode,
    readonly detail: string,
  ) {
    super(detail);
  }
}
