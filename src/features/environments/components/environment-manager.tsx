import { useEffect, useId, useRef, useState } from "react";
import * as v from "valibot";
import { useAppForm } from "@/components/form/app-form";
import { SafeName } from "@/components/safe-name";
import {
  addEnvironment,
  environmentSchema,
  removeEnvironment,
  renameEnvironment,
  sameAddressAs,
  STORAGE_REFUSED,
  type Environment,
} from "../environment-store";
import "./environments.css";

interface EnvironmentManagerProps {
  environments: readonly Environment[];
  /** The environment the connection points at, if it is one of them. */
  activeId: string | null;
  /** The base URL and API ID in use now, offered as the new environment's address. */
  currentBaseUrl: string;
  currentApiId?: string | undefined;
  onChoose: (environment: Environment) => void;
}

/** Add, rename, remove and choose the named base URLs kept in this browser. */
export function EnvironmentManager({
  environments,
  activeId,
  currentBaseUrl,
  currentApiId,
  onChoose,
}: EnvironmentManagerProps) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const focusAfterRemove = useRef(false);

  // The removed item's buttons are gone: focus goes to the list (or, once it is empty, the section's heading).
  useEffect(() => {
    if (!focusAfterRemove.current) return;
    focusAfterRemove.current = false;
    (listRef.current ?? headingRef.current)?.focus();
  }, [environments]);

  return (
    <section className="environments" aria-labelledby={headingId}>
      <h2 id={headingId} className="environments__heading" ref={headingRef} tabIndex={-1}>
        Environments
      </h2>
      <p className="environments__intro">
        Named base URLs, such as Development and Production, kept in this browser. Keys are never saved with them.
      </p>
      {environments.length > 0 && (
        <ul className="environments__list" ref={listRef} tabIndex={-1} aria-label="Saved environments">
          {environments.map((environment) => (
            <EnvironmentRow
              key={environment.id}
              environment={environment}
              active={environment.id === activeId}
              others={environments.filter((other) => other.id !== environment.id)}
              onChoose={() => onChoose(environment)}
              onRemove={() => {
                focusAfterRemove.current = true;
                removeEnvironment(environment.id);
              }}
            />
          ))}
        </ul>
      )}
      <AddEnvironmentForm
        environments={environments}
        initialBaseUrl={currentBaseUrl}
        initialApiId={currentApiId ?? ""}
      />
    </section>
  );
}

interface EnvironmentRowProps {
  environment: Environment;
  active: boolean;
  others: readonly Environment[];
  onChoose: () => void;
  onRemove: () => void;
}

function EnvironmentRow({ environment, active, others, onChoose, onRemove }: EnvironmentRowProps) {
  const [renaming, setRenaming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  // After Save, Cancel or Escape, focus returns to this item's Rename button (which names the new name).
  const focusRename = useRef(false);
  const form = useAppForm({
    defaultValues: { name: environment.name },
    onSubmit: ({ value }) => {
      const read = v.safeParse(environmentSchema(others), { name: value.name, baseUrl: environment.baseUrl });
      if (!read.success) {
        setError(read.issues[0].message);
        return;
      }
      try {
        renameEnvironment(environment.id, read.output.name);
      } catch {
        // The typed name stays in the field, to save again once storage works.
        setError(STORAGE_REFUSED);
        return;
      }
      endRename();
    },
  });

  function endRename() {
    focusRename.current = true;
    setRenaming(false);
    setError(null);
  }

  function remove() {
    try {
      onRemove();
    } catch {
      setRemoveError(STORAGE_REFUSED);
    }
  }

  return (
    <li className="environments__item">
      {renaming ? (
        <form
          className="environments__rename"
          onSubmit={(event) => {
            event.preventDefault();
            void form.handleSubmit();
          }}
          aria-label={`Rename ${environment.name}`}
          noValidate
        >
          <label htmlFor={inputId} className="visually-hidden">
            New name for <SafeName>{environment.name}</SafeName>
          </label>
          <form.Field name="name">
            {(field) => (
              <input
                id={inputId}
                className="input"
                value={field.state.value}
                onChange={(event) => field.handleChange(event.target.value)}
                onBlur={field.handleBlur}
                onKeyDown={(event) => {
                  if (event.key !== "Escape") return;
                  event.preventDefault();
                  endRename();
                }}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId : undefined}
                // eslint-disable-next-line jsx-a11y/no-autofocus -- the field appears because the user asked to rename
                autoFocus
              />
            )}
          </form.Field>
          <button type="submit" className="button button--small button--primary">
            Save
          </button>
          <button type="button" className="button button--small" onClick={endRename}>
            Cancel
          </button>
          {error && (
            <p className="field__error" id={errorId} role="alert">
              {error}
            </p>
          )}
        </form>
      ) : (
        <div className="environments__summary">
          <SafeName className="environments__name">{environment.name}</SafeName>
          {active && <span className="badge badge--ok">Active</span>}
          <code className="environments__url">{environment.baseUrl}</code>
          {environment.apiId && <code className="environments__url">{environment.apiId}</code>}
        </div>
      )}
      {!renaming && (
        <div className="environments__actions">
          {!active && (
            <button type="button" className="button button--small button--primary" onClick={onChoose}>
              Use<span className="visually-hidden"> {environment.name}</span>
            </button>
          )}
          <button
            type="button"
            className="button button--small"
            ref={(element) => {
              if (element === null || !focusRename.current) return;
              focusRename.current = false;
              element.focus();
            }}
            onClick={() => {
              form.reset({ name: environment.name });
              setRenaming(true);
            }}
          >
            Rename<span className="visually-hidden"> {environment.name}</span>
          </button>
          <button type="button" className="button button--small" onClick={remove}>
            Remove<span className="visually-hidden"> {environment.name}</span>
          </button>
        </div>
      )}
      {removeError && (
        <p className="field__error" role="alert">
          {removeError}
        </p>
      )}
    </li>
  );
}

function AddEnvironmentForm({
  environments,
  initialBaseUrl,
  initialApiId,
}: {
  environments: readonly Environment[];
  initialBaseUrl: string;
  initialApiId: string;
}) {
  const [error, setError] = useState<{ field: "name" | "baseUrl" | "storage"; reason: string } | null>(null);
  // The saved environment at the same address, once the user was told; a second submit adds anyway.
  const [duplicateOf, setDuplicateOf] = useState<Environment | null>(null);
  const id = useId();
  const blank = { name: "", baseUrl: initialBaseUrl, apiId: initialApiId };
  const form = useAppForm({
    defaultValues: blank,
    onSubmit: ({ value }) => {
      const read = v.safeParse(environmentSchema(environments), value);
      if (!read.success) {
        const field = read.issues[0].path?.[0]?.key === "name" ? "name" : "baseUrl";
        setError({ field, reason: read.issues[0].message });
        return;
      }
      setError(null);
      const duplicate = sameAddressAs(read.output, environments);
      if (duplicate !== undefined && duplicate.id !== duplicateOf?.id) {
        setDuplicateOf(duplicate);
        return;
      }
      try {
        addEnvironment(read.output);
      } catch {
        setError({ field: "storage", reason: STORAGE_REFUSED });
        return;
      }
      setDuplicateOf(null);
      form.reset(blank);
    },
  });

  return (
    <form
      className="environments__add"
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
      noValidate
      aria-label="Add an environment"
    >
      <div className="field">
        <label className="field__label" htmlFor={`${id}-name`}>
          Environment name
        </label>
        <form.Field name="name">
          {(field) => (
            <input
              id={`${id}-name`}
              className="input"
              value={field.state.value}
              onChange={(event) => field.handleChange(event.target.value)}
              onBlur={field.handleBlur}
              placeholder="Production"
              aria-invalid={error?.field === "name" ? true : undefined}
              aria-describedby={error?.field === "name" ? `${id}-error` : undefined}
            />
          )}
        </form.Field>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-url`}>
          Environment URL
        </label>
        <form.Field name="baseUrl">
          {(field) => (
            <input
              id={`${id}-url`}
              className="input input--mono"
              type="url"
              value={field.state.value}
              onChange={(event) => {
                field.handleChange(event.target.value);
                setDuplicateOf(null);
              }}
              onBlur={field.handleBlur}
              placeholder="https://api.example.com"
              aria-invalid={error?.field === "baseUrl" ? true : undefined}
              aria-describedby={
                error?.field === "baseUrl" ? `${id}-error` : duplicateOf ? `${id}-duplicate` : undefined
              }
            />
          )}
        </form.Field>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-api`}>
          Environment API ID <span className="field__optional">(optional, for the real service)</span>
        </label>
        <form.Field name="apiId">
          {(field) => (
            <input
              id={`${id}-api`}
              className="input input--mono"
              value={field.state.value}
              onChange={(event) => {
                field.handleChange(event.target.value);
                setDuplicateOf(null);
              }}
              onBlur={field.handleBlur}
              placeholder="api_…"
            />
          )}
        </form.Field>
      </div>
      {error && (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error.reason}
        </p>
      )}
      {duplicateOf && (
        <p className="environments__warning" id={`${id}-duplicate`} role="alert">
          <SafeName>{duplicateOf.name}</SafeName> already uses this address{duplicateOf.apiId ? " and API ID" : ""}. Add
          it anyway? Both stay in the list and each can be chosen.
        </p>
      )}
      <button type="submit" className="button">
        {duplicateOf ? "Add anyway" : "Add environment"}
      </button>
    </form>
  );
}
