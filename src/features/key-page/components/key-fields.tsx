import "@/components/facts.css";
import { useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { CopyButton } from "@/components/copy-button";
import { SafeName } from "@/components/safe-name";
import { revealBidiControls } from "@/lib/bidi";
import type { Key, KeyRatelimit } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";
import { formatIsoTime, formatPastTime, formatRelativeTime, formatUtcTime } from "@/lib/format-time";
import { describeRefill } from "@/lib/key-facts";
import { formatRateLimit, nextRefill } from "@/lib/key-limits";
import { MetaTree } from "./meta-tree";

/** Items of a list (permissions, roles) shown before "Show all": 500 permissions stay a short page. */
export const LIST_SHOWN = 40;

/**
 * Every field of a key, absent ones said to be absent, server text always shown as text; its identity a link to the
 * identity's page when `identityHref` is given.
 */
export function KeyFields({
  apiKey,
  now,
  identityHref,
}: {
  apiKey: Key;
  now: number;
  identityHref?: ((identityId: string) => string) | undefined;
}) {
  const { credits, identity } = apiKey;
  return (
    <dl className="facts">
      <Field term="Key id">
        <code className="key-fields__id">
          <SafeName>{apiKey.keyId}</SafeName>
        </code>{" "}
        <CopyButton value={apiKey.keyId} label="Copy the key id" />
      </Field>
      <Field term="Prefix">
        {apiKey.start === undefined ? (
          <None />
        ) : (
          <code>
            <SafeName>{apiKey.start}</SafeName>
          </code>
        )}
      </Field>
      <Field term="Enabled">
        {apiKey.enabled === undefined ? <None /> : apiKey.enabled ? "Yes" : "No: every verification is refused"}
      </Field>
      <Field term="Created">
        <Timestamp time={apiKey.createdAt} now={now} past />
      </Field>
      <Field term="Updated">
        <Timestamp time={apiKey.updatedAt} now={now} past />
      </Field>
      <Field term="Expires">
        {apiKey.expires === undefined ? "Never" : <Timestamp time={apiKey.expires} now={now} />}
      </Field>
      <Field term="Last used">
        {apiKey.lastUsedAt === undefined ? "Never" : <Timestamp time={apiKey.lastUsedAt} now={now} past />}
      </Field>
      <Field term="Credits">
        {credits === undefined || credits.remaining === null ? (
          "Unlimited"
        ) : (
          <>
            {formatCount(credits.remaining)} remaining
            {credits.refill === undefined ? (
              ", never refilled"
            ) : (
              <>
                ; {describeRefill(credits.refill)}, next{" "}
                <Timestamp time={nextRefill(credits, now) ?? undefined} now={now} />
              </>
            )}
          </>
        )}
      </Field>
      <Field term="Rate limits">
        <RateLimits limits={apiKey.ratelimits} />
      </Field>
      <Field term="Permissions">
        <TextList items={apiKey.permissions} noun="permission" />
      </Field>
      <Field term="Roles">
        <TextList items={apiKey.roles} noun="role" />
      </Field>
      <Field term="Identity">
        {identity === undefined ? (
          <None />
        ) : (
          <dl className="key-fields__nested">
            <Field term="External id">
              {identityHref === undefined ? (
                <code>
                  <SafeName>{identity.externalId}</SafeName>
                </code>
              ) : (
                <Link to={identityHref(identity.id)} aria-label={`Identity ${revealBidiControls(identity.externalId)}`}>
                  <code>
                    <SafeName>{identity.externalId}</SafeName>
                  </code>
                </Link>
              )}
            </Field>
            <Field term="Identity id">
              <code>
                <SafeName>{identity.id}</SafeName>
              </code>
            </Field>
            {identity.ratelimits !== undefined && (
              <Field term="Identity rate limits">
                <RateLimits limits={identity.ratelimits} />
              </Field>
            )}
            <Field term="Identity meta">
              {identity.meta === undefined ? <None /> : <MetaTree value={identity.meta} label="Identity meta" />}
            </Field>
          </dl>
        )}
      </Field>
      <Field term="Meta">{apiKey.meta === undefined ? <None /> : <MetaTree value={apiKey.meta} label="Meta" />}</Field>
    </dl>
  );
}

function Field({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="facts__row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function None() {
  return <span className="facts__none">None</span>;
}

/**
 * "3 days ago · 2026-11-20 10:00:00 UTC": relative for reading, exact for checking. `past`: the time of something that
 * has happened (a change, a use, a refusal), never said as "in …" (`formatPastTime`).
 */
export function Timestamp({ time, now, past = false }: { time: number | undefined; now: number; past?: boolean }) {
  const iso = time === undefined ? null : formatIsoTime(time);
  if (time === undefined || iso === null) return <None />;
  return (
    <span className="timestamp">
      <time dateTime={iso}>{past ? formatPastTime(time, now) : formatRelativeTime(time, now)}</time>
      <span className="timestamp__sep"> · </span>
      <span className="timestamp__exact">{formatUtcTime(time)}</span>
    </span>
  );
}

function RateLimits({ limits }: { limits: readonly KeyRatelimit[] | undefined }) {
  if (limits === undefined || limits.length === 0) return <None />;
  return (
    <ul className="key-fields__list">
      {limits.map((limit, index) => (
        <li key={`${limit.id}-${index}`}>
          <strong>
            <SafeName>{limit.name}</SafeName>
          </strong>
          : {formatRateLimit(limit)}
          {limit.autoApply ? ", on every verification" : ", when a verification asks for it"}
        </li>
      ))}
    </ul>
  );
}

function TextList({ items, noun }: { items: readonly string[] | undefined; noun: string }) {
  const [all, setAll] = useState(false);
  if (items === undefined || items.length === 0) return <None />;
  const shown = all ? items : items.slice(0, LIST_SHOWN);
  return (
    <>
      <ul className="key-fields__chips">
        {shown.map((item, index) => (
          <li key={`${index}-${item}`}>
            <code>
              <SafeName>{item}</SafeName>
            </code>
          </li>
        ))}
      </ul>
      {items.length > LIST_SHOWN && (
        <button type="button" className="button button--small" onClick={() => setAll((value) => !value)}>
          {all ? `Show the first ${LIST_SHOWN}` : `Show all ${formatCount(items.length)} ${noun}s`}
        </button>
      )}
    </>
  );
}
