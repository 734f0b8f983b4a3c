/**
 * One mock LLM server per test file: started before the file's first test, closed after its last.
 * Kept apart from server.ts so the server stays usable outside `bun test` (benchmarks, main.ts).
 */
import { afterAll, beforeAll, beforeEach } from "bun:test";
import { startMockLlmServer } from "./server.ts";
import type { MockLlmServer } from "./types.ts";

export interface UseMockLlmServerOptions {
  /** Empty `requests` before every test, so indexes into it start at 0. */
  clearRequestsBeforeEach?: boolean;
  /** Drop replies an earlier test enqueued and never used, so each test starts on its own script. */
  clearQueueBeforeEach?: boolean;
}

/** Registers the hooks; the returned accessor gives the running server (only inside hooks and tests). */
export function useMockLlmServer(options: UseMockLlmServerOptions = {}): () => MockLlmServer {
  let server: MockLlmServer | undefined;
  beforeAll(async () => {
    server = await startMockLlmServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  if (options.clearRequestsBeforeEach) {
    beforeEach(() => {
      if (server) server.requests.length = 0;
    });
  }
  if (options.clearQueueBeforeEach) {
    beforeEach(() => server?.clearQueue());
  }
  return () => {
    if (!server) throw new Error("the mock LLM server runs only inside this file's hooks and tests");
    return server;
  };
}
