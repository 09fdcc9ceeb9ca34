import { useStore } from "@tanstack/react-form";
import { useId, useMemo, useState } from "react";
import * as v from "valibot";
import { useAppForm } from "@/components/form/app-form";
import { firstProblem } from "@/components/form/fields";
import { useProblemFocus } from "@/components/form/use-problem-focus";
import type { CreateKeyRequest } from "@/lib/api/create-key";
import type { Connection } from "@/lib/api/transport";
import { ambiguousTimeNote, NO_DATE_TIME, MetaTextSchema } from "@/lib/field-text";
import { useHoldPage } from "@/lib/hooks/use-hold-page";
import { useNow } from "@/lib/hooks/use-now";
import { SECRET_LOST_BY_LEAVING, SECRET_ON_ITS_WAY, useCreateKey } from "../api/use-key-mutations";
import { choicesUnlisted, useWorkspacePermissions, useWorkspaceRoles } from "../api/use-workspace-choices";
import type { KeyCache } from "../key-cache";
import { mayHaveCreated } from "../api/find-created-keys";
import { useApiCheck } from "../api/use-api-check";
import { useKnownApis } from "@/lib/known-apis";
import { ApiError } from "@/lib/api-errors";
import { forgetRefusal, isAmbiguousCreateNotFound, learnCreateRefusedAsNotFound, useRefusal } from "../refusals";
import { ActionDialog } from "@/components/action-dialog";
import "./key-actions.css";
import { ApiField, type SuggestedApi } from "./api-field";
import { FormEnd } from "@/components/form/form-end";
import { RatelimitFields } from "@/components/form/ratelimit-fields";
import { CreditsFields } from "./form-parts";
import { EMPTY_RATELIMIT, RatelimitRowsSchema } from "@/lib/ratelimit-rows";
import {
  creditsDraft,
  CreditsDraftSchema,
  expiresFieldMax,
  expiresText,
  ExternalIdTextSchema,
  NameTextSchema,
  PermissionNamesTextSchema,
  PrefixTextSchema,
  RoleNamesTextSchema,
} from "./key-form-fields";
import { NamePicker } from "./name-picker";
import { AmbiguousNotFoundNote } from "./refusal-note";
import type { RenderError } from "./render-error";
import { SecretField } from "./secret-field";
import { UnansweredCreate } from "./unanswered-create";

/**
 * The Create key form read into keys.createKey's request: each field's problem at the field; what is empty is left
 * out. Expires must be in the future (the service says a past one is wrong too; this says it before sending).
 */
function createKeySchema(now: number) {
  return v.pipe(
    v.object({
      apiId: v.pipe(v.string(), v.trim(), v.nonEmpty("Say which API the key belongs to (its id, api_…).")),
      name: NameTextSchema,
      prefix: PrefixTextSchema,
      expires: expiresText(now),
      credits: CreditsDraftSchema,
      ratelimits: RatelimitRowsSchema,
      permissions: v.array(v.string()),
      typedPermissions: PermissionNamesTextSchema,
      roles: v.array(v.string()),
      typedRoles: RoleNamesTextSchema,
      externalId: ExternalIdTextSchema,
      meta: MetaTextSchema,
      enabled: v.boolean(),
    }),
    v.transform((read): CreateKeyRequest => {
      const permissions = [...new Set([...read.permissions, ...read.typedPermissions])];
      const roles = [...new Set([...read.roles, ...read.typedRoles])];
      return {
        apiId: read.apiId,
        enabled: read.enabled,
        ...(read.name !== undefined && { name: read.name }),
        ...(read.prefix !== undefined && { prefix: read.prefix }),
        ...(read.expires !== undefined && { expires: read.expires }),
        ...(read.credits !== undefined && { credits: read.credits }),
        ...(read.ratelimits.length > 0 && { ratelimits: read.ratelimits }),
        ...(permissions.length > 0 && { permissions }),
        ...(roles.length > 0 && { roles }),
        ...(read.externalId !== undefined && { externalId: read.externalId }),
        ...(read.meta !== undefined && { meta: read.meta }),
      };
    }),
  );
}

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

  const [problem, setProblem] = useState<string | null>(null);
  const schema = useMemo(() => createKeySchema(now), [now]);
  const { formRef, focusFirstProblem } = useProblemFocus(setProblem);
  const form = useAppForm({
    defaultValues: {
      apiId: offers[0]?.apiId ?? "",
      name: "",
      prefix: "",
      expires: NO_DATE_TIME,
      credits: creditsDraft(undefined, now),
      ratelimits: [EMPTY_RATELIMIT],
      permissions: [] as string[],
      typedPermissions: "",
      roles: [] as string[],
      typedRoles: "",
      externalId: "",
      meta: "",
      enabled: true,
    },
    validators: { onChange: schema },
    onSubmit: ({ value }) => {
      const read = v.safeParse(schema, value);
      if (read.success) send(read.output);
    },
    onSubmitInvalid: focusFirstProblem,
  });
  const apiId = useStore(form.store, (state) => state.values.apiId);
  const sent = useStore(form.store, (state) => state.submissionAttempts > 0);
  const picked = useStore(form.store, (state) => ({
    permissions: state.values.permissions,
    roles: state.values.roles,
  }));
  const expires = useStore(form.store, (state) => state.values.expires);

  // The API id checked (getApi and the createKey probe): the one offered first, then each one chosen or typed.
  const [checkedApiId, setCheckedApiId] = useState<string | null>(offers[0]?.apiId ?? null);
  const existsForSure = (api: string) => api === connectionApi || seen.has(api);
  const knownToExist = checkedApiId !== null && existsForSure(checkedApiId);
  const check = useApiCheck(connection, checkedApiId, knownToExist);
  const refusal = useRefusal(connection, "create_key", { apiId: checkedApiId ?? undefined });
  const blocked = checkedApiId !== null && checkedApiId === apiId.trim() && (check.missing || refusal !== undefined);
  const retry = () => void form.handleSubmit();

  function send(built: CreateKeyRequest) {
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
    <form
      ref={formRef}
      className="action-form"
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
      noValidate
    >
      <form.Field name="apiId">
        {(field) => (
          <ApiField
            id={id}
            value={field.state.value}
            onChange={field.handleChange}
            problem={sent ? firstProblem(field.state.meta.errors) : undefined}
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
        )}
      </form.Field>
      <fieldset className="action-form__rest" disabled={blocked}>
        <form.AppField name="name">{(field) => <field.TextField label="Name" />}</form.AppField>
        <form.AppField name="prefix">{(field) => <field.TextField label="Prefix" mono maxLength={16} />}</form.AppField>
        <form.AppField name="expires">
          {(field) => (
            <field.DateTimeField
              label="Expires"
              hint="Empty: never expires."
              note={ambiguousTimeNote(expires)}
              max={expiresFieldMax()}
            />
          )}
        </form.AppField>
        <CreditsFields form={form} fields="credits" />
        <RatelimitFields form={form} fields={{ ratelimits: "ratelimits" }} />
        <NamePicker
          legend="Permissions"
          choices={permissionsQuery.data?.map((permission) => permission.slug ?? permission.name)}
          choicesNote={choicesUnlisted(permissionsQuery.error, "permissions")}
          picked={picked.permissions}
          onPickedChange={(permissions) => form.setFieldValue("permissions", permissions)}
          typedField={(label) => (
            <form.AppField name="typedPermissions">
              {(field) => <field.TextField label={label} mono live />}
            </form.AppField>
          )}
        />
        <NamePicker
          legend="Roles"
          choices={rolesQuery.data?.map((role) => role.name)}
          choicesNote={choicesUnlisted(rolesQuery.error, "roles")}
          picked={picked.roles}
          onPickedChange={(roles) => form.setFieldValue("roles", roles)}
          typedField={(label) => (
            <form.AppField name="typedRoles">{(field) => <field.TextField label={label} mono live />}</form.AppField>
          )}
          existingOnly
        />
        <form.AppField name="externalId">{(field) => <field.TextField label="External id" mono />}</form.AppField>
        <form.AppField name="meta">
          {(field) => <field.TextAreaField label="Meta (JSON)" rows={3} mono live />}
        </form.AppField>
        <form.AppField name="enabled">{(field) => <field.CheckboxField label="Enabled" />}</form.AppField>
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
                onRetry={retry}
              />
            ) : (
              <>
                {renderError(mutation.error, retry)}
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
