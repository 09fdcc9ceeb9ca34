import { startServer } from "../test/support/server-process";
import { runLoad } from "./lib/processes";
const server = await startServer();
const rootKey = await server.admin(["root-key", "create", "--name", "b", "--permissions", "api.*.verify_key,ratelimit.*.limit,ratelimit.*.create_namespace"]);
const secrets: string[] = [];
for (let i = 0; i < 10; i++) secrets.push((await server.admin(["keys", "create", "--name", `v${i}`])).split(" ")[1] ?? "");
const auth = { "content-type": "application/json", authorization: `Bearer ${rootKey}` };
const verifyBodies = secrets.map((key) => JSON.stringify({ key, tags: ["path=/api/users"] }));
const limitBodies = Array.from({ length: 10 }, (_, i) => JSON.stringify({ namespace: "bench", identifier: `user_${i}`, limit: 1_000_000_000, duration: 60_000 }));
const run = (path: string, bodies: string[], d = 3) => runLoad({ url: `${server.url}${path}`, headers: auth, bodies, connections: 10, durationSeconds: d });
await run("/v2/keys.verifyKey", verifyBodies, 1); await run("/v2/ratelimit.limit", limitBodies, 1);
for (let r = 0; r < 3; r++) {
  const v = await run("/v2/keys.verifyKey", verifyBodies);
  const l = await run("/v2/ratelimit.limit", limitBodies);
  console.log(`verify ${Math.round(v.requestsPerSecond)} ${JSON.stringify(v.statusCodes)}  limit ${Math.round(l.requestsPerSecond)} ${JSON.stringify(l.statusCodes)} ratio ${(l.requestsPerSecond / v.requestsPerSecond).toFixed(2)}`);
}
await server.stop();
