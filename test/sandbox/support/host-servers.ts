/**
 * Two HTTP servers on the host's loopback for the network tests: one a test allows, one it
 * does not. The sandbox's own loopback has neither, so only the proxy can reach them.
 */
import { afterAll, beforeAll } from "bun:test";

type Server = ReturnType<typeof Bun.serve>;

export interface HostServers {
  /** Answers "ALLOWED-SERVER". */
  allowed(): Server;
  /** Answers "OTHER-SERVER". */
  other(): Server;
}

/** Registers the servers for this test file (call once, at the top level). */
export function useHostServers(): HostServers {
  let allowed: Server | undefined;
  let other: Server | undefined;
  beforeAll(() => {
    allowed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ALLOWED-SERVER\n") });
    other = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("OTHER-SERVER\n") });
  });
  afterAll(() => {
    allowed?.stop(true);
    other?.stop(true);
  });
  const started = (server: Server | undefined): Server => {
    if (server === undefined) throw new Error("the host servers start in beforeAll");
    return server;
  };
  return { allowed: () => started(allowed), other: () => started(other) };
}
