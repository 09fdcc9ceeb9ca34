import { CopyButton } from "@/components/copy-button";
import { SafeName } from "@/components/safe-name";
import { RATELIMIT_LIMIT_PATH, ratelimitPermission } from "@/lib/contract";

/** A word for a POSIX shell, whatever it holds: in single quotes, each quote in it closed, escaped and reopened. */
export function shellWord(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** The first `ratelimit.limit` that makes the namespace, by hand; the root key left as `$ROOT_KEY`. */
export function createNamespaceCurl(baseUrl: string, namespace: string): string {
  const body = JSON.stringify({ namespace, identifier: "setup", limit: 10, duration: 60_000 });
  return [
    `curl -X POST ${shellWord(`${baseUrl}${RATELIMIT_LIMIT_PATH}`)}`,
    `  -H "Authorization: Bearer $ROOT_KEY"`,
    `  -H "Content-Type: application/json"`,
    `  -d ${shellWord(body)}`,
  ].join(" \\\n");
}

/** The reference server's admin command that makes the namespace. */
export function createNamespaceCommand(namespace: string): string {
  return `npm run admin -- namespaces create --name ${shellWord(namespace)}`;
}

/**
 * A namespace the service says is not there (404), said plainly: what that means, and how one is made (no operation
 * creates a namespace by itself: the first limit in it does, for a root key that may create namespaces).
 */
export function NamespaceMissing({
  namespace,
  baseUrl,
  headingLevel = 2,
}: {
  namespace: string;
  baseUrl: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const curl = createNamespaceCurl(baseUrl, namespace);
  const command = createNamespaceCommand(namespace);
  return (
    <section className="namespace-missing" aria-label="Namespace not found" data-testid="namespace-missing">
      <Heading className="namespace-missing__heading">
        There is no namespace “<SafeName>{namespace}</SafeName>” in this root key’s workspace
      </Heading>
      <p>
        The service answered 404 (<code>ratelimit_namespace_not_found</code>): no namespace has this name or id. Names
        are exact (<code>sms.sign_up</code> is not <code>SMS.sign_up</code>), and another workspace’s namespaces are not
        there for this root key.
      </p>
      <p>
        A namespace is made by its first <code>ratelimit.limit</code>: a request by a root key that holds{" "}
        <code>{ratelimitPermission("create_namespace")}</code> (and <code>{ratelimitPermission("limit")}</code>) creates
        it. Your code’s first limit does; to make it now:
      </p>
      <figure className="namespace-missing__snippet">
        <figcaption>
          By hand, with such a root key in <code>$ROOT_KEY</code>
        </figcaption>
        <div className="namespace-missing__code">
          <pre>
            <code>{curl}</code>
          </pre>
          <CopyButton value={curl} label="Copy the curl command" />
        </div>
      </figure>
      <figure className="namespace-missing__snippet">
        <figcaption>On Keyscope’s reference server, with its admin CLI</figcaption>
        <div className="namespace-missing__code">
          <pre>
            <code>{command}</code>
          </pre>
          <CopyButton value={command} label="Copy the admin command" />
        </div>
      </figure>
    </section>
  );
}
