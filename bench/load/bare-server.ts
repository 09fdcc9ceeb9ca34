/**
 * The floor of the API benchmarks: a bare node:http server that reads the request body and answers a fixed
 * envelope, chosen by path, with the same status, size and shape as the reference server's.
 * Input: the path of a JSON file { [path]: { status, body } }. Prints "listening <port>" once it is.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

export type BareRoutes = Record<string, { status: number; body: string }>;

const routes = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as BareRoutes;
const answers = new Map(
  Object.entries(routes).map(([path, { status, body }]) => [path, { status, body: Buffer.from(body) }] as const),
);

const server = createServer((request, response) => {
  const answer = answers.get(request.url ?? "");
  request.resume();
  request.on("end", () => {
    if (answer === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(answer.status, {
      "content-type": "application/json",
      "cache-control": "no-store",
      "content-length": answer.body.length,
    });
    response.end(answer.body);
  });
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the bare server has no TCP address");
  process.stdout.write(`listening ${address.port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
