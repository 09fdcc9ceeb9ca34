import { useId, useState } from "react";
import { Link } from "react-router-dom";
import { Loading } from "@/components/offline-notice";
import { SafeName } from "@/components/safe-name";
import { isMissingOperationAt } from "@/lib/access-memory";
import { isPermissionRefusal } from "@/lib/access-probe";
import { ApiError, InvalidConnectionError } from "@/lib/api-errors";
import type { Connection } from "@/lib/api/transport";
import { apiGrants, LIST_KEYS_PATH, type Key } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";
import { fieldRefusals, type FieldRefusal } from "@/lib/key-refusal";
import { useMediaQuery } from "@/lib/hooks/use-media-query";
import type { FoundKeys, KeySearch } from "../api/identity-queries";

/** Keys listed before "Show the other …": an identity of a thousand keys stays a short page. */
const KEYS_SHOWN = 100;

/** Where tables become cards. */
export const PHONE = "(max-width: 640px)";

/** An API the dashboard knows, and where from ("this connection's", an environment's, "seen in this session"). */
export interface OfferedApi {
  apiId: string;
  name?: string | undefined;
  from: string;
}

/** One place searched and what it answered (a query's state). */
export interface SearchResult {
  search: KeySearch;
  data: FoundKeys | undefined;
  error: unknown;
  isPending: boolean;
}

const STATUS_WORDS: Record<FieldRefusal, string> = {
  disabled: "Disabled",
  expired: "Expired",
  "no-credits": "Out of credits",
};

function keyStatus(key: Key, now: number): string {
  const refusals = fieldRefusals(key, now);
  return refusals.length === 0 ? "Active" : refusals.map((refusal) => STATUS_WORDS[refusal]).join(", ");
}

/** Why a place could not be searched, in a sentence with the permissions that would let it. */
function searchFailure(search: KeySearch, error: unknown): string {
  if (search.apiId === null && error instanceof InvalidConnectionError)
    return "the service has no keys.listKeys (the real service lists keys per API only)";
  if (search.apiId !== null && error instanceof ApiError && error.status === 404)
    return `no such API, or this root key may not read its keys (that needs ${apiGrants("read_key", search.apiId).join(" or ")} with ${apiGrants("read_api", search.apiId).join(" or ")})`;
  if (isPermissionRefusal(error)) return `refused: ${error.detail}`;
  return error instanceof Error ? `failed: ${error.message}` : "failed";
}

export interface IdentityKeysProps {
  connection: Connection;
  externalId: string;
  results: readonly SearchResult[];
  /** The APIs searched, with their names and where they are known from. */
  apis: ReadonlyMap<string, OfferedApi>;
  now: number;
  keyHref: (keyId: string) => string;
  /** Searches another API too (typed: not known to exist until it answers). */
  onAddApi: (apiId: string) => void;
}

/** Every key found of the identity, one row each, first where it was found (an API before the whole workspace). */
function keysFound(results: readonly SearchResult[]): { key: Key; apiId: string | null }[] {
  const found = new Map<string, { key: Key; apiId: string | null }>();
  for (const result of [...results].sort(
    (a, b) => (a.search.apiId === null ? 1 : 0) - (b.search.apiId === null ? 1 : 0),
  ))
    for (const key of result.data?.keys ?? [])
      if (!found.has(key.keyId)) found.set(key.keyId, { key, apiId: result.search.apiId });
  return [...found.values()];
}

/**
 * Every key the identity owns, found with `apis.listKeys` and its `externalId` in each API the dashboard knows (and
 * `keys.listKeys`, the whole workspace, where the service has it): the v2 API has no operation that lists an
 * identity's keys, nor one that lists APIs. Says which places were searched and what each answered, and offers to
 * search another API.
 */
export function IdentityKeys({ connection, externalId, results, apis, now, keyHref, onAddApi }: IdentityKeysProps) {
  const all = keysFound(results);
  const [showAll, setShowAll] = useState(false);
  const found = showAll ? all : all.slice(0, KEYS_SHOWN);
  const phone = useMediaQuery(PHONE);
  const pending = results.some((result) => result.isPending);
  const workspaceMissing = isMissingOperationAt(connection, LIST_KEYS_PATH);

  return (
    <div className="identity-keys">
      {found.length > 0 ? (
        phone ? (
          <ul className="identity-cards" aria-label="The identity’s keys">
            {found.map(({ key, apiId }) => (
              <li key={key.keyId} className="identity-cards__card">
                <KeyName apiKey={key} keyHref={keyHref} />
                <dl>
                  <div>
                    <dt>Status</dt>
                    <dd>{keyStatus(key, now)}</dd>
                  </div>
                  <div>
                    <dt>Own rate limits</dt>
                    <dd>
                      <OwnLimits apiKey={key} />
                    </dd>
                  </div>
                  <div>
                    <dt>Found in</dt>
                    <dd>
                      <FoundIn apiId={apiId} />
                    </dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
        ) : (
          <div className="identity-keys__scroll">
            <table className="identity-table">
              <caption className="visually-hidden">The identity’s keys</caption>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Status</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Own rate limits</th>
                  <th scope="col">Found in</th>
                </tr>
              </thead>
              <tbody>
                {found.map(({ key, apiId }) => (
                  <tr key={key.keyId}>
                    <th scope="row">
                      <KeyName apiKey={key} keyHref={keyHref} />
                    </th>
                    <td>{keyStatus(key, now)}</td>
                    <td>
                      {key.start === undefined ? (
                        "—"
                      ) : (
                        <code>
                          <SafeName>{key.start}</SafeName>
                        </code>
                      )}
                    </td>
                    <td>
                      <OwnLimits apiKey={key} />
                    </td>
                    <td>
                      <FoundIn apiId={apiId} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : pending ? (
        <p role="status">
          <Loading>Looking for its keys…</Loading>
        </p>
      ) : (
        <p className="identity-page__quiet">
          No key of <SafeName>{externalId}</SafeName> was found in the places searched.
        </p>
      )}
      {found.length < all.length && (
        <button type="button" className="button button--small" onClick={() => setShowAll(true)}>
          Show the other {formatCount(all.length - found.length)} keys
        </button>
      )}
      <h3 className="identity-keys__searched-title">Where Keyscope looked</h3>
      <ul className="identity-keys__searched">
        {results.map((result) => (
          <li key={result.search.apiId ?? "workspace"}>
            {result.search.apiId === null ? (
              <>
                The whole workspace (<code>keys.listKeys</code>)
              </>
            ) : (
              <ApiName api={apis.get(result.search.apiId) ?? { apiId: result.search.apiId, from: "" }} />
            )}
            :{" "}
            {result.isPending
              ? "searching…"
              : result.data !== undefined
                ? `${result.data.keys.length} ${result.data.keys.length === 1 ? "key" : "keys"}${result.data.complete ? "" : " (the first ones; there are more)"}`
                : searchFailure(result.search, result.error)}
          </li>
        ))}
        {results.length === 0 && <li>Nowhere yet: this dashboard knows no API of the workspace.</li>}
      </ul>
      {workspaceMissing && (
        <p className="field__hint">
          The service lists keys per API only (it has no <code>keys.listKeys</code>) and no operation lists APIs: a key
          in an API not above is not found. Add its API to search it too.
        </p>
      )}
      <AddApi searched={results.flatMap((result) => result.search.apiId ?? [])} onAdd={onAddApi} />
    </div>
  );
}

function KeyName({ apiKey, keyHref }: { apiKey: Key; keyHref: (keyId: string) => string }) {
  return (
    <>
      <Link to={keyHref(apiKey.keyId)}>
        <SafeName>{apiKey.name !== undefined && apiKey.name.trim() !== "" ? apiKey.name : apiKey.keyId}</SafeName>
      </Link>
      <code className="identity-keys__id">
        <SafeName>{apiKey.keyId}</SafeName>
      </code>
    </>
  );
}

function OwnLimits({ apiKey }: { apiKey: Key }) {
  const limits = apiKey.ratelimits ?? [];
  return limits.length === 0 ? (
    "None: only the identity’s"
  ) : (
    <SafeName>{limits.map((limit) => limit.name).join(", ")}</SafeName>
  );
}

function FoundIn({ apiId }: { apiId: string | null }) {
  return apiId === null ? (
    "the workspace"
  ) : (
    <code>
      <SafeName>{apiId}</SafeName>
    </code>
  );
}

function ApiName({ api }: { api: OfferedApi }) {
  return (
    <>
      {api.name === undefined ? "API" : <SafeName>{api.name}</SafeName>}{" "}
      <code>
        <SafeName>{api.apiId}</SafeName>
      </code>
      {api.from === "" ? "" : ` (${api.from})`}
    </>
  );
}

/** Search another API: once it answers, it is one of the session's APIs, offered wherever APIs are. */
function AddApi({ searched, onAdd }: { searched: readonly string[]; onAdd: (apiId: string) => void }) {
  const id = useId();
  const [typed, setTyped] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="identity-keys__add"
      onSubmit={(event) => {
        event.preventDefault();
        const apiId = typed.trim();
        if (apiId === "") return setProblem("Type an API’s id (api_…).");
        if (searched.includes(apiId)) return setProblem("That API is searched already.");
        setProblem(null);
        setTyped("");
        onAdd(apiId);
      }}
    >
      <label htmlFor={id} className="field__label">
        Search another API
      </label>
      <div className="identity-keys__add-row">
        <input
          id={id}
          className="input input--mono"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          placeholder="api_…"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problem !== null}
          aria-describedby={problem === null ? undefined : `${id}-problem`}
        />
        <button type="submit" className="button">
          Search it
        </button>
      </div>
      {problem !== null && (
        <span id={`${id}-problem`} className="field__error">
          {problem}
        </span>
      )}
    </form>
  );
}
