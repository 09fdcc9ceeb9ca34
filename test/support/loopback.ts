import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Listening {
  url: string;
  stop(): Promise<void>;
}

/** Starts a test server on a free loopback port; `stop` ends open connections too, so it never hangs. */
export async function listenOnLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
