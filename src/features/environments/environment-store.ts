import * as v from "valibot";
import { useSyncExternalStore } from "react";
import { checkBaseUrl } from "../../lib/check-base-url";

/**
 * Named base URLs ("Development", "Production"), kept in this browser's localStorage so they outlive the tab.
 * Only names, base URLs and API IDs are ever written here: never a key. What is read back goes through a
 * parser that keeps those fields and drops anything else.
 */

export interface Environment {
  id: string;
  name: string;
  baseUrl: string;
  apiId?: string;
}

export type EnvironmentInput = Omit<Environment, "id">;

export const ENVIRONMENTS_ITEM = "keyscope.environments";
const MAX_NAME = 60;

/** What localStorage holds: all or nothing; fields other than these are dropped. */
const StoredEnvironments = v.object({
  environments: v.array(
    v.object({
      id: v.pipe(v.string(), v.nonEmpty()),
      name: v.pipe(v.string(), v.nonEmpty()),
      baseUrl: v.string(),
      apiId: v.optional(v.string()),
    }),
  ),
});

function storedEnvironments(value: unknown): Environment[] | null {
  const parsed = v.safeParse(StoredEnvironments, value);
  if (!parsed.success) return null;
  return parsed.output.environments.map(({ id, name, baseUrl, apiId }) =>
    apiId ? { id, name, baseUrl, apiId } : { id, name, baseUrl },
  );
}

const listeners = new Set<() => void>();
let snapshot: { raw: string | null; environments: readonly Environment[] } = { raw: null, environments: [] };

function readRaw(): string | null {
  try {
    return localStorage.getItem(ENVIRONMENTS_ITEM);
  } catch {
    return null;
  }
}

function parse(raw: string | null): readonly Environment[] {
  if (raw === null) return [];
  try {
    return storedEnvironments(JSON.parse(raw)) ?? [];
  } catch {
    return [];
  }
}

export function readEnvironments(): readonly Environment[] {
  const raw = readRaw();
  if (raw !== snapshot.raw) snapshot = { raw, environments: parse(raw) };
  return snapshot.environments;
}

function write(environments: readonly Environment[]): void {
  // Field by field, so nothing but these three values can ever reach storage.
  const stored = environments.map(({ id, name, baseUrl, apiId }) =>
    apiId ? { id, name, baseUrl, apiId } : { id, name, baseUrl },
  );
  localStorage.setItem(ENVIRONMENTS_ITEM, JSON.stringify({ environments: stored }));
  for (const listener of listeners) listener();
}

export type EnvironmentCheck =
  { ok: true; value: EnvironmentInput } | { ok: false; field: "name" | "baseUrl"; reason: string };

/** A name and an http(s) base URL (trailing slashes and a pasted operation path dropped), or why not. */
export function checkEnvironment(
  input: { name: string; baseUrl: string; apiId?: string },
  others: readonly Environment[],
): EnvironmentCheck {
  const name = input.name.trim();
  if (name === "") return { ok: false, field: "name", reason: "Give the environment a name, for example Production." };
  if (name.length > MAX_NAME)
    return { ok: false, field: "name", reason: `Keep the name to at most ${MAX_NAME} characters.` };
  if (others.some((environment) => environment.name.toLowerCase() === name.toLowerCase())) {
    return { ok: false, field: "name", reason: `There is already an environment named “${name}”.` };
  }
  // The same check as key entry: a pasted operation URL is cut back to its base.
  const url = checkBaseUrl(input.baseUrl);
  if (!url.ok) return { ok: false, field: "baseUrl", reason: url.reason };
  const apiId = input.apiId?.trim();
  return { ok: true, value: apiId ? { name, baseUrl: url.baseUrl, apiId } : { name, baseUrl: url.baseUrl } };
}

/**
 * The environment form's fields read by checkEnvironment: the environment, or its reason as an issue at the field it
 * is about (`name` or `baseUrl`).
 */
export function environmentSchema(others: readonly Environment[]) {
  return v.pipe(
    v.object({ name: v.string(), baseUrl: v.string(), apiId: v.optional(v.string()) }),
    v.rawTransform(({ dataset, addIssue, NEVER }): EnvironmentInput => {
      const check = checkEnvironment(dataset.value, others);
      if (check.ok) return check.value;
      const input = dataset.value;
      addIssue({
        message: check.reason,
        path: [{ type: "object", origin: "value", input, key: check.field, value: input[check.field] }],
      });
      return NEVER;
    }),
  );
}

/** A saved environment at the same address (base URL and API ID) as `input`: allowed, but worth a warning. */
export function sameAddressAs(input: EnvironmentInput, others: readonly Environment[]): Environment | undefined {
  return others.find((other) => other.baseUrl === input.baseUrl && (other.apiId ?? "") === (input.apiId ?? ""));
}

function newId(): string {
  return `env_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** What to tell the user when the browser refuses to store (site data blocked, storage full). */
export const STORAGE_REFUSED =
  "This browser refused to save the change (site data is blocked or storage is full); nothing was changed.";

/** Throws when the browser refuses storage; the caller tells the user. */
export function addEnvironment(input: EnvironmentInput): Environment {
  const environment: Environment = { id: newId(), ...input };
  write([...readEnvironments(), environment]);
  return environment;
}

/** Throws when the browser refuses storage; the caller tells the user. */
export function renameEnvironment(id: string, name: string): void {
  write(
    readEnvironments().map((environment) =>
      environment.id === id ? { ...environment, name: name.trim() } : environment,
    ),
  );
}

/** Throws when the browser refuses storage; the caller tells the user. */
export function removeEnvironment(id: string): void {
  write(readEnvironments().filter((environment) => environment.id !== id));
}

/**
 * The environment the connection points at: same base URL and same API ID (none counts as none). When several
 * share that address, the one last chosen (`environmentId`) is it, else the first.
 */
export function activeEnvironment(
  environments: readonly Environment[],
  target: { baseUrl: string; apiId?: string | undefined; environmentId?: string | undefined } | null,
): Environment | null {
  if (target === null) return null;
  const matching = environments.filter(
    (environment) => environment.baseUrl === target.baseUrl && (environment.apiId ?? "") === (target.apiId ?? ""),
  );
  return matching.find((environment) => environment.id === target.environmentId) ?? matching[0] ?? null;
}

function onStorage(event: StorageEvent): void {
  if (event.key === null || event.key === ENVIRONMENTS_ITEM) for (const listener of listeners) listener();
}

export function subscribeToEnvironments(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener("storage", onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("storage", onStorage);
  };
}

export function useEnvironments(): readonly Environment[] {
  return useSyncExternalStore(subscribeToEnvironments, readEnvironments, () => []);
}
