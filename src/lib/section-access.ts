/**
 * Whether the root key may read a section of the dashboard (Identities, Authorization, Rate limits), and whether the
 * connection's service has it at all: learnt from the answer of the section's first read (its list), kept in the
 * session's access memory (./access-memory.ts) with every other refusal, so that the page says which permission it
 * needs, or that the service has no such operation, instead of an empty page, and the header's link says it too.
 * What the header reads is here; reading a section, which the pages do, is in ./section-read.ts (not on the first
 * screen).
 */
import { useCallback } from "react";
import {
  forgetAccess,
  isMissingOperationAt,
  learnOperationExists,
  refusalAt,
  useAccessMemory,
  type AccessSlot,
  type LearntRefusal,
} from "./access-memory";
import type { Connection } from "./api/transport";
import { connectionScopeId } from "./connection-scope";

/** The sections whose reading a root key may be refused (Keys and Logs have their own panels for that). */
export type SectionId = "identities" | "authorization" | "ratelimits";

/** How a section is read: the permissions any one of which lets it (the grant rule's forms), and its operation. */
export interface SectionRead {
  /** `identity.*.read_identity`: said to the person, in this order. */
  permissions: readonly string[];
  /** The path of the operation that reads it (`/v2/identities.listIdentities`). */
  operation: string;
}

export type SectionAccess =
  /** The service refused the read for a permission: `needs` grants it, `detail` is the service's words. */
  | { kind: "refused"; needs: readonly string[]; detail: string }
  /** The connection's service has no such operation (a router's 404): a proxy to a deployment without it. */
  | { kind: "missing"; operation: string };

/** The session memory's slot of reading a section. */
export function sectionSlot(section: SectionId): AccessSlot {
  return { action: "read", on: `section ${section}` };
}

/** The operation each section was last read with, per connection: what a missing one names. */
const readWith = new Map<string, string>();

/** The section is being read with `operation` (./section-read.ts says so before each read). */
export function noteSectionRead(connection: Connection, section: SectionId, operation: string): void {
  readWith.set(`${connectionScopeId(connection)}|${section}`, operation);
}

/** Made once per learnt refusal or missing operation: a snapshot read twice is the same object. */
const refusedAs = new WeakMap<LearntRefusal, SectionAccess>();
const missingAs = new Map<string, SectionAccess>();

/** What the session learnt of reading `section` on this connection: refused, missing, or nothing against it. */
export function sectionAccessOf(connection: Connection, section: SectionId): SectionAccess | undefined {
  const operation = readWith.get(`${connectionScopeId(connection)}|${section}`);
  if (operation !== undefined && isMissingOperationAt(connection, operation)) {
    let missing = missingAs.get(operation);
    if (missing === undefined) {
      missing = { kind: "missing", operation };
      missingAs.set(operation, missing);
    }
    return missing;
  }
  const refusal = refusalAt(connection, sectionSlot(section));
  if (refusal === undefined) return undefined;
  let refused = refusedAs.get(refusal);
  if (refused === undefined) {
    refused = { kind: "refused", needs: refusal.needs ?? [], detail: refusal.detail };
    refusedAs.set(refusal, refused);
  }
  return refused;
}

/** `sectionAccessOf`, re-rendered when it changes; nothing without a connection (the header before key entry). */
export function useSectionAccess(connection: Connection | null, section: SectionId): SectionAccess | undefined {
  const read = useCallback(
    () => (connection === null ? undefined : sectionAccessOf(connection, section)),
    [connection, section],
  );
  return useAccessMemory(read);
}

/** "Granted since? Check again": what was learnt of the section is forgotten, to be read again. */
export function forgetSectionAccess(connection: Connection, section: SectionId): void {
  const operation = readWith.get(`${connectionScopeId(connection)}|${section}`);
  if (operation !== undefined) learnOperationExists(connection, operation);
  forgetAccess(connection, sectionSlot(section));
}

/** The operation's name as the services write it: `/v2/identities.listIdentities` → `identities.listIdentities`. */
export function operationName(path: string): string {
  return path.replace(/^\/v2\//, "");
}
