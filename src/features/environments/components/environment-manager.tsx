import { useId, useState, type FormEvent } from "react";
import {
  addEnvironment,
  checkEnvironment,
  removeEnvironment,
  renameEnvironment,
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
export function EnvironmentManager({ environments, activeId, currentBaseUrl, currentApiId, onChoose }: EnvironmentManagerProps) {
  const headingId = useId();
  return (
    <section className="environments" aria-labelledby={headingId}>
      <h2 id={headingId} className="environments__heading">
        Environments
      </h2>
      <p className="environments__intro">
        Named base URLs, such as Development and Production, kept in this browser. Keys are never saved with them.
      </p>
      {environments.length > 0 && (
        <ul className="environments__list">
          {environments.map((environment) => (
            <EnvironmentRow
              key={environment.id}
              environment={environment}
              active={environment.id === activeId}
              others={environments.filter((other) => other.id !== environment.id)}
              onChoose={() => onChoose(environment)}
            />
          ))}
        </ul>
      )}
      <AddEnvironmentForm environments={environments} initialBaseUrl={currentBaseUrl} initialApiId={currentApiId ?? ""} />
    </section>
  );
}

interface EnvironmentRowProps {
  environment: Environment;
  active: boolean;
  others: readonly Environment[];
  onChoose: () => void;
}

function EnvironmentRow({ environment, active, others, onChoose }: EnvironmentRowProps) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(environment.name);
  const [error, setError] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const inputId = useId();

  function saveName(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const check = checkEnvironment({ name, baseUrl: environment.baseUrl }, others);
    if (!check.ok) {
      setError(check.reason);
      return;
    }
    try {
      renameEnvironment(environment.id, check.value.name);
    } catch {
      // The typed name stays in the field, to save again once storage works.
      setError(STORAGE_REFUSED);
      return;
    }
    setRenaming(false);
    setError(null);
  }

  function remove() {
    try {
      removeEnvironment(environment.id);
    } catch {
      setRemoveError(STORAGE_REFUSED);
    }
  }

  return (
    <li className="environments__item">
      {renaming ? (
        <form className="environments__rename" onSubmit={saveName} aria-label={`Rename ${environment.name}`}>
          <label htmlFor={inputId} className="visually-hidden">
            New name for {environment.name}
          </label>
          <input
            id={inputId}
            className="input"
            value={name}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={error ? true : undefined}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the field appears because the user asked to rename
            autoFocus
          />
          <button type="submit" className="button button--small button--primary">
            Save
          </button>
          <button type="button" className="button button--small" onClick={() => setRenaming(false)}>
            Cancel
          </button>
          {error && <p className="field__error">{error}</p>}
        </form>
      ) : (
        <div className="environments__summary">
          <span className="environments__name">{environment.name}</span>
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
            onClick={() => {
              setName(environment.name);
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
  const [name, setName] = useState("");
  const [baseUrl, setBaseUrl] = useState(initialBaseUrl);
  const [apiId, setApiId] = useState(initialApiId);
  const [error, setError] = useState<{ field: "name" | "baseUrl" | "storage"; reason: string } | null>(null);
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const check = checkEnvironment({ name, baseUrl, apiId }, environments);
    if (!check.ok) {
      setError({ field: check.field, reason: check.reason });
      return;
    }
    try {
      addEnvironment(check.value);
    } catch {
      setError({ field: "storage", reason: STORAGE_REFUSED });
      return;
    }
    setError(null);
    setName("");
    setBaseUrl(initialBaseUrl);
    setApiId(initialApiId);
  }

  return (
    <form className="environments__add" onSubmit={submit} noValidate aria-label="Add an environment">
      <div className="field">
        <label className="field__label" htmlFor={`${id}-name`}>
          Environment name
        </label>
        <input
          id={`${id}-name`}
          className="input"
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Production"
          aria-invalid={error?.field === "name" ? true : undefined}
          aria-describedby={error?.field === "name" ? `${id}-error` : undefined}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-url`}>
          Environment URL
        </label>
        <input
          id={`${id}-url`}
          className="input input--mono"
          type="url"
          value={baseUrl}
          onChange={(event) => setBaseUrl(event.target.value)}
          placeholder="https://api.example.com"
          aria-invalid={error?.field === "baseUrl" ? true : undefined}
          aria-describedby={error?.field === "baseUrl" ? `${id}-error` : undefined}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-api`}>
          Environment API ID <span className="field__optional">(optional, for the real service)</span>
        </label>
        <input
          id={`${id}-api`}
          className="input input--mono"
          value={apiId}
          onChange={(event) => setApiId(event.target.value)}
          placeholder="api_…"
        />
      </div>
      {error && (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error.reason}
        </p>
      )}
      <button type="submit" className="button">
        Add environment
      </button>
    </form>
  );
}
