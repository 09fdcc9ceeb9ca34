import { useMutation } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import * as v from "valibot";
import { useAppForm } from "@/components/form/app-form";
import { FormEnd } from "@/components/form/form-end";
import { SafeName } from "@/components/safe-name";
import { listOverrides } from "@/lib/api/list-overrides";
import type { Connection } from "@/lib/api/transport";
import { SectionAccessNotice } from "@/components/access-notes";
import { isPermissionRefusal } from "@/lib/access-probe";
import { isMissingOperation } from "@/lib/api/list-keys";
import { forgetSectionAccess, useSectionAccess } from "@/lib/section-access";
import { isNamespaceMissing, readOverrides } from "../api/overrides";
import {
  findKnownNamespace,
  forgetNamespace,
  NAMESPACE_MAX_LENGTH,
  namespaceKey,
  rememberNamespace,
  STORAGE_REFUSED,
  useKnownNamespaces,
  type KnownNamespace,
} from "../known-namespaces";
import { learnFromError } from "../refusals";
import { NamespaceMissing } from "./namespace-missing";
import "./ratelimits.css";

/** The app's readable panel for a failed request (the troubleshoot feature's), with a Retry that repeats only it. */
export type RenderError = (error: unknown, onRetry: () => void) => ReactNode;

export interface NamespacesPageProps {
  connection: Connection;
  /** A namespace's page. */
  namespaceHref: (name: string) => string;
  renderError: RenderError;
}

const NameSchema = v.object({
  name: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, "Type the namespace’s name (such as sms.sign_up), or its id (rlns_…)"),
    v.maxLength(NAMESPACE_MAX_LENGTH, `A namespace’s name is at most ${NAMESPACE_MAX_LENGTH} characters`),
  ),
});

type Told = { kind: "added" | "forgot" | "known"; namespace: KnownNamespace } | { kind: "refused-storage" };

/**
 * The Rate limits section: the namespaces this browser knows for this connection (no operation lists them), each a
 * link to its page and forgettable, and a form that adds one by its name or id once the service says it exists.
 */
export function NamespacesPage({ connection, namespaceHref, renderError }: NamespacesPageProps) {
  const known = useKnownNamespaces(connection);
  const access = useSectionAccess(connection, "ratelimits");
  const [told, setTold] = useState<Told | null>(null);
  const [missing, setMissing] = useState<string | null>(null);

  // Asked with listOverrides, which finds the namespace before it checks the permission: a 403 says it exists too.
  const check = useMutation({
    mutationFn: async (name: string) => {
      try {
        await readOverrides(connection, name, () => listOverrides(connection, { namespace: name, limit: 1 }));
      } catch (error) {
        if (!isPermissionRefusal(error)) throw error;
        learnFromError(connection, "read_override", name, error);
      }
    },
  });

  const form = useAppForm({
    defaultValues: { name: "" },
    validators: { onChange: NameSchema },
    onSubmit: ({ value, formApi }) => {
      const name = namespaceKey(value.name);
      setMissing(null);
      const already = findKnownNamespace(connection, name);
      if (already !== undefined) {
        setTold({ kind: "known", namespace: already });
        return;
      }
      check.mutate(name, {
        onSuccess: () => {
          try {
            rememberNamespace(connection, name);
            setTold({ kind: "added", namespace: { name } });
            formApi.reset();
          } catch {
            setTold({ kind: "refused-storage" });
          }
        },
        onError: (error) => {
          if (isNamespaceMissing(error)) setMissing(name);
        },
      });
    },
  });

  function forget(namespace: KnownNamespace) {
    try {
      forgetNamespace(connection, namespace.name);
      setTold({ kind: "forgot", namespace });
    } catch {
      setTold({ kind: "refused-storage" });
    }
  }

  function undoForget(namespace: KnownNamespace) {
    try {
      rememberNamespace(connection, namespace.name, namespace.id);
      setTold({ kind: "added", namespace });
    } catch {
      setTold({ kind: "refused-storage" });
    }
  }

  return (
    <div className="ratelimits-page">
      <header className="ratelimits-page__header">
        <h1>Rate limits</h1>
        <p className="ratelimits-page__lead">
          Rate-limit namespaces hold the identifiers <code>ratelimit.limit</code> limits, and their overrides. The
          service has no operation that lists them: add one here by its name or id once, and this browser remembers it
          for this root key (its name and id only, never the key).
        </p>
      </header>

      {access !== undefined && (
        <SectionAccessNotice
          access={access}
          section="Rate limits"
          reading="Reading a namespace’s overrides"
          baseUrl={connection.baseUrl}
          onCheckAgain={() => forgetSectionAccess(connection, "ratelimits")}
        >
          {access.kind === "refused" && (
            <p>
              A namespace whose own permission this root key holds still opens; each page says what it may not read.
            </p>
          )}
        </SectionAccessNotice>
      )}
      <p role="status" className="ratelimits-page__told">
        {told?.kind === "added" && (
          <>
            Added <SafeName>{told.namespace.name}</SafeName>.
          </>
        )}
        {told?.kind === "known" && (
          <>
            <SafeName>{told.namespace.name}</SafeName> is in the list already.
          </>
        )}
        {told?.kind === "forgot" && (
          <>
            Forgot <SafeName>{told.namespace.name}</SafeName> in this browser (the namespace itself is unchanged).{" "}
            <button type="button" className="button button--small" onClick={() => undoForget(told.namespace)}>
              Undo
            </button>
          </>
        )}
        {told?.kind === "refused-storage" && STORAGE_REFUSED}
      </p>

      <section className="ratelimits-page__card" aria-labelledby="known-namespaces">
        <h2 id="known-namespaces">Namespaces this browser knows</h2>
        {known.length === 0 ? (
          <p className="ratelimits-page__empty">
            None yet for this root key. Add one below by the name your code gives <code>ratelimit.limit</code>.
          </p>
        ) : (
          <ul className="namespace-list">
            {known.map((namespace) => (
              <li key={namespace.name} className="namespace-list__item">
                <Link className="namespace-list__link" to={namespaceHref(namespace.name)}>
                  <SafeName>{namespace.name}</SafeName>
                </Link>
                {namespace.id !== undefined && namespace.id !== namespace.name && (
                  <code className="namespace-list__id">{namespace.id}</code>
                )}
                <button
                  type="button"
                  className="button button--small button--ghost namespace-list__forget"
                  onClick={() => forget(namespace)}
                  aria-label={`Forget ${namespace.name}`}
                >
                  Forget
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="ratelimits-page__card" aria-labelledby="add-namespace">
        <h2 id="add-namespace">Add a namespace</h2>
        <form
          className="namespace-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void form.handleSubmit();
          }}
        >
          <form.AppField name="name">
            {(field) => (
              <field.TextField
                label="Namespace name or id"
                hint="As your code names it in ratelimit.limit, such as sms.sign_up; or its id, rlns_…"
                spellCheck={false}
                mono
              />
            )}
          </form.AppField>
          <FormEnd
            error={
              check.isError &&
              !isNamespaceMissing(check.error) &&
              !isMissingOperation(check.error) &&
              renderError(check.error, () => void form.handleSubmit())
            }
            pending={check.isPending}
            label="Add namespace"
            pendingLabel="Checking…"
          />
        </form>
        {missing !== null && <NamespaceMissing namespace={missing} baseUrl={connection.baseUrl} headingLevel={3} />}
      </section>
    </div>
  );
}
