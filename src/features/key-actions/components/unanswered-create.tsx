import { useMutation } from "@tanstack/react-query";
import type { CreateKeyRequest } from "@/lib/api/create-key";
import type { Connection } from "@/lib/api/transport";
import { formatUtcTime } from "@/lib/format-time";
import { findCreatedKeys } from "../api/find-created-keys";
import type { KeyCache } from "../key-cache";
import type { RenderError } from "./render-error";

export interface UnansweredCreateProps {
  connection: Connection;
  /** The request that got no answer (no secret in it: the service makes the secret). */
  request: CreateKeyRequest;
  /** When it was sent (ms). */
  since: number;
  error: Error;
  cache: KeyCache;
  renderError: RenderError;
  /** Sends the request again. */
  onRetry: () => void;
}

/**
 * A createKey that got no answer may have made the key: a blind retry could make a second one. This says so and
 * offers to look in the list first: the request's API, keys made since it with its name and external id.
 */
export function UnansweredCreate({
  connection,
  request,
  since,
  error,
  cache,
  renderError,
  onRetry,
}: UnansweredCreateProps) {
  const check = useMutation({
    gcTime: 0,
    mutationFn: () => findCreatedKeys(connection, request, since),
    // Found keys go into the lists, as a created key would.
    onSuccess: ({ keys }) => keys.forEach((key) => void cache.keyCreated(key.keyId, request.apiId)),
  });
  const what = [
    request.name === undefined ? "without a name" : `named “${request.name}”`,
    request.externalId !== undefined && `for ${request.externalId}`,
  ]
    .filter(Boolean)
    .join(" ");

  return (
    <div className="refusal-note" role="alert">
      <p>
        <strong>No answer came back</strong> ({error.message}), but the request may have reached the service and created
        the key. Sending it again could make a second one.
      </p>
      {check.isIdle && (
        <div className="action-form__buttons">
          <button type="button" className="button button--primary" onClick={() => check.mutate()}>
            Check the list first
          </button>
        </div>
      )}
      {check.isPending && <p role="status">Looking through the keys of {request.apiId}…</p>}
      {check.isError && renderError(check.error, () => check.mutate())}
      {check.isSuccess &&
        (check.data.keys.length > 0 ? (
          <>
            <p>
              It did: {check.data.keys.length === 1 ? "a key" : `${check.data.keys.length} keys`} {what} created since
              the request, now in the list. Its secret cannot be shown again: reroll the key for a new one, or delete
              it.
            </p>
            <ul>
              {check.data.keys.map((key) => (
                <li key={key.keyId}>
                  <code>{key.keyId}</code>
                  {key.createdAt !== undefined && <> created {formatUtcTime(key.createdAt)}</>}
                </li>
              ))}
            </ul>
            <div className="action-form__buttons">
              <button type="button" className="button" onClick={onRetry}>
                Create another anyway
              </button>
            </div>
          </>
        ) : (
          <>
            <p>
              No key {what} was created since the request
              {check.data.complete
                ? ": sending it again makes one key."
                : " among the first 1,000 keys of the API (it has more, listed by id, not age)."}
            </p>
            <div className="action-form__buttons">
              <button type="button" className="button button--primary" onClick={onRetry}>
                Retry
              </button>
            </div>
          </>
        ))}
    </div>
  );
}
