import {
  CreditsFields,
  EnabledField,
  ExpiresField,
  ExternalIdField,
  Field,
  FormEnd,
  MetaField,
  NameField,
  RatelimitFields,
} from "./form-parts";
import { useId, useState, type FormEvent } from "react";
import type { CreateKeyRequest } from "@/lib/api/create-key";
import type { Connection } from "@/lib/api/transport";
import { useHoldPage } from "@/lib/hooks/use-hold-page";
import { useNow } from "@/lib/hooks/use-now";
import { SECRET_LOST_BY_LEAVING, SECRET_ON_ITS_WAY, useCreateKey } from "../api/use-key-mutations";
import { choicesUnlisted, useWorkspacePermissions, useWorkspaceRoles } from "../api/use-workspace-choices";
import type { KeyCache } from "../key-cache";
import { mayHaveCreated } from "../api/find-created-keys";
import { useApiCheck } from "../api/use-api-check";
import { useKnownApis } from "../known-apis";
import { ApiError } from "@/lib/api-errors";
import { forgetRefusal, isAmbiguousCreateNotFound, learnCreateRefusedAsNotFound, useRefusal } from "../refusals";
import { ActionDialog } from "./action-dialog";
import { ApiField, type SuggestedApi } from "./api-field";
import {
  creditsDraft,
  EMPTY_RATELIMIT,
  parseCredits,
  parseExpires,
  parseMeta,
  parseRatelimits,
  splitNames,
  type RatelimitRow,
} from "./key-form-fields";
import { NamePicker } from "./name-picker";
import { AmbiguousNotFoundNote } from "./refusal-note";
import type { RenderError } from "./render-error";
import { SecretField } from "./secret-field";
import { UnansweredCreate } from "./unanswered-create";

export interface CreateKeyDialogProps {
  connection: Connection;
  cache: KeyCache;
  renderError: RenderError;
  onClose: () => void;
  /** APIs to offer besides the connection's (an environment's), with where they come from. */
  suggestedApis?: readonly SuggestedApi[];
}

/** Create key: every field keys.createKey takes; on success the secret, shown once. */
export function CreateKeyDialog({ connection, cache, renderError, onClose, suggestedApis = [] }: CreateKeyDialogProps) {
  const [created, setCreated] = useState<{ keyId: string; secret: string } | null>(null);
  // Here, not in the form: while it is pending the dialog must stay open, or the secret would have nowhere to go.
  const mutation = useCreateKey(connection, cache);
  useHoldPage(mutation.isPending || created !== null ? SECRET_LOST_BY_LEAVING : null);
  return (
    <ActionDialog
      title={created === null ? "Create key" : "Key created"}
      onClose={onClose}
      busy={mutation.isPending ? SECRET_ON_ITS_WAY : undefined}
    >
      {created === null ? (
        <CreateKeyForm
          connection={connection}
          cache={cache}
          mutation={mutation}
          renderError={renderError}
          onCreated={setCreated}
          suggestedApis={suggestedApis}
        />
      ) : (
        <>
          <SecretField secret={created.secret} keyId={created.keyId} />
          <div className="action-form__buttons">
            <button type="button" className="button button--primary" onClick={onClose}>
              Done
            </button>
          </div>
        </>
      )}
    </ActionDialog>
  );
}

interface CreateKeyFormProps {
  connection: Connection;
  cache: KeyCache;
  suggestedApis: readonly SuggestedApi[];
  mutation: ReturnType<typeof useCreateKey>;
  renderError: RenderError;
  onCreated: (created: { keyId: string; secret: string }) => void;
}

function CreateKeyForm({ connection, cache, suggestedApis, mutation, renderError, onCreated }: CreateKeyFormProps) {
  const id = useId();
  // The server says a past expiry is wrong too; this catches it before sending (a minute's precision is enough).
  const now = useNow();
  const permissionsQuery = useWorkspacePermissions(connection);
  const rolesQuery = useWorkspaceRoles(connection);
  const seen = useKnownApis(connection);
  const connectionApi = connection.apiId?.trim() || undefined;
  // The connection's API first (its keys are listed: it exists), then the environments', then those seen since.
  const offers = [
    ...(connectionApi === undefined ? [] : [{ apiId: connectionApi, from: "this connection’s API" }]),
    ...suggestedApis,
    ...[...seen.values()].map((api) => ({ apiId: api.apiId, from: "seen in this session" })),
  ]
    .filter((offer, index, all) => all.findIndex((other) => other.apiId === offer.apiId) === index)
    .map((offer) => ({ ...offer, name: seen.get(offer.apiId)?.name }));

  const [apiId, setApiId] = useState(offers[0]?.apiId ?? "");
  // The API id checked (getApi and the createKey probe): the one offered first, then each one chosen or typed.
  const [checkedApiId, setCheckedApiId] = useState<string | null>(offers[0]?.apiId ?? null);
  const existsForSure = (api: string) => api === connectionApi || seen.has(api);
  const knownToExist = checkedApiId !== null && existsForSure(checkedApiId);
  const check = useApiCheck(connection, checkedApiId, knownToExist);
  const refusal = useRefusal(connection, "create_key", { apiId: checkedApiId ?? undefined });
  const blocked = checkedApiId !== null && checkedApiId === apiId.trim() && (check.missing || refusal !== undefined);
  const [name, setName] = useState("");
  const [prefix, setPrefix] = useState("");
  const [expires, setExpires] = useState("");
  const [credits, setCredits] = useState(() => creditsDraft(undefined, Date.now()));
  const [limits, setLimits] = useState<RatelimitRow[]>([EMPTY_RATELIMIT]);
  const [pickedPermissions, setPickedPermissions] = useState<string[]>([]);
  const [newPermissions, setNewPermissions] = useState("");
  const [pickedRoles, setPickedRoles] = useState<string[]>([]);
  const [newRoles, setNewRoles] = useState("");
  const [externalId, setExternalId] = useState("");
  const [meta, setMeta] = useState("");
  const [enabled, setEnabled] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);

  const metaCheck = parseMeta(meta);

  function request(now: number): CreateKeyRequest | string {
    if (apiId.trim() === "") return "Say which API the key belongs to (its id, api_…).";
    if (prefix !== "" && !/^[a-zA-Z0-9_]{1,16}$/.test(prefix)) return "A prefix is up to 16 letters, digits or _.";
    const expiresAt = parseExpires(expires, now);
    if (!expiresAt.ok) return `Expires: ${expiresAt.error}`;
    const creditsValue = parseCredits(credits);
    if (!creditsValue.ok) return `Credits: ${creditsValue.error}`;
    const ratelimits = parseRatelimits(limits);
    if (!ratelimits.ok) return ratelimits.error;
    if (!metaCheck.ok) return `Meta: ${metaCheck.error}`;
    const permissions = [...new Set([...pickedPermissions, ...splitNames(newPermissions)])];
    const roles = [...new Set([...pickedRoles, ...splitNames(newRoles)])];
    return {
      apiId: apiId.trim(),
      enabled,
      ...(name.trim() !== "" && { name: name.trim() }),
      ...(prefix !== "" && { prefix }),
      ...(expiresAt.value !== undefined && { expires: expiresAt.value }),
      ...(creditsValue.value !== undefined && { credits: creditsValue.value }),
      ...(ratelimits.value.length > 0 && { ratelimits: ratelimits.value }),
      ...(permissions.length > 0 && { permissions }),
      ...(roles.length > 0 && { roles }),
      ...(externalId.trim() !== "" && { externalId: externalId.trim() }),
      ...(metaCheck.value !== undefined && { meta: metaCheck.value }),
    };
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    send();
  }

  function send() {
    const built = request(now);
    if (typeof built === "string") {
      setProblem(built);
      return;
    }
    setProblem(null);
    if (built.apiId !== checkedApiId) setCheckedApiId(built.apiId);
    let secret = "";
    mutation.mutate(
      { request: built, reveal: (value) => (secret = value) },
      {
        onSuccess: ({ keyId }) => {
          onCreated({ keyId, secret });
          mutation.reset();
        },
        // For an API known to exist, the masked 404 is the refusal: said with the API, and the form held back.
        onError: (error) => {
          if (error instanceof ApiError && isAmbiguousCreateNotFound(error) && existsForSure(built.apiId))
            learnCreateRefusedAsNotFound(connection, built.apiId, error);
        },
      },
    );
  }

  return (
    <form className="action-form" onSubmit={submit} noValidate>
      <ApiField
        id={id}
        value={apiId}
        onChange={setApiId}
        checked={checkedApiId}
        onCheck={setCheckedApiId}
        offers={offers}
        check={check}
        refusal={refusal}
        onCheckAgain={() => {
          if (checkedApiId === null) return;
          forgetRefusal(connection, "create_key", { apiId: checkedApiId });
          void check.permission.refetch();
        }}
      />
      <fieldset className="action-form__rest" disabled={blocked}>
        <NameField id={id} value={name} onChange={setName} />
        <Field inputId={`${id}-prefix`} label="Prefix">
          <input
            id={`${id}-prefix`}
            className="input input--mono"
            value={prefix}
            onChange={(event) => setPrefix(event.target.value)}
            autoComplete="off"
            maxLength={16}
          />
        </Field>
        <ExpiresField id={id} value={expires} onChange={setExpires} />
        <CreditsFields id={id} value={credits} onChange={setCredits} />
        <RatelimitFields id={id} rows={limits} onChange={setLimits} />
        <NamePicker
          legend="Permissions"
          choices={permissionsQuery.data?.map((permission) => permission.slug ?? permission.name)}
          choicesNote={choicesUnlisted(permissionsQuery.error)}
          picked={pickedPermissions}
          onPickedChange={setPickedPermissions}
          typed={newPermissions}
          onTypedChange={setNewPermissions}
        />
        <NamePicker
          legend="Roles"
          choices={rolesQuery.data?.map((role) => role.name)}
          choicesNote={choicesUnlisted(rolesQuery.error)}
          picked={pickedRoles}
          onPickedChange={setPickedRoles}
          typed={newRoles}
          onTypedChange={setNewRoles}
          existingOnly
        />
        <ExternalIdField id={id} value={externalId} onChange={setExternalId} />
        <MetaField id={id} value={meta} onChange={setMeta} check={metaCheck} rows={3} />
        <EnabledField value={enabled} onChange={setEnabled} />
        <FormEnd
          problem={problem}
          error={
            mutation.isError &&
            (mayHaveCreated(mutation.error) && mutation.variables ? (
              <UnansweredCreate
                key={mutation.submittedAt}
                connection={connection}
                request={mutation.variables.request}
                since={mutation.submittedAt}
                error={mutation.error}
                cache={cache}
                renderError={renderError}
                onRetry={send}
              />
            ) : (
              <>
                {renderError(mutation.error, send)}
                {isAmbiguousCreateNotFound(mutation.error) &&
                  mutation.variables &&
                  !existsForSure(mutation.variables.request.apiId) && (
                    <AmbiguousNotFoundNote apiId={mutation.variables.request.apiId} />
                  )}
              </>
            ))
          }
          pending={mutation.isPending}
          label="Create key"
          pendingLabel="Creating…"
          disabled={blocked}
        />
      </fieldset>
    </form>
  );
}
