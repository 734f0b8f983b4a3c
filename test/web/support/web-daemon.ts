/**
 * A real `shard daemon` child serving a freshly built web client, on a mock-LLM home, for the
 * browser tests; stopped after each test. `enrollmentUrl` is the line it printed.
 */
import { afterEach } from "bun:test";
import { mockHome, tempDir } from "../../agent/support/agent-process.ts";
import type { DaemonClient } from "../../daemon/support/daemon-client.ts";
import { DaemonProcess } from "../../daemon/support/daemon-harness.ts";
import type { MockLlmServer } from "../../support/mock-llm/types.ts";
import { builtWebDir } from "./web-build.ts";

export interface WebDaemon {
  process: DaemonProcess;
  url: string;
  enrollmentUrl: string;
  cwd: string;
  /** A local (unix socket) client, for arranging state the test is not about. */
  client(): Promise<DaemonClient>;
}

export interface WebDaemonOptions {
  /** SHARD_HOME (default: a mock-LLM home whose models.json points at the file's server). */
  home?: string;
  /** Added to the daemon's environment. */
  env?: Record<string, string>;
  /** Added to `shard daemon`'s arguments. */
  args?: string[];
}

export function useWebDaemons(llm: () => MockLlmServer): (options?: WebDaemonOptions) => Promise<WebDaemon> {
  const running: { process: DaemonProcess; clients: DaemonClient[] }[] = [];
  afterEach(async () => {
    for (const entry of running.splice(0)) {
      for (const c of entry.clients) c.close();
      await entry.process.stop();
    }
  });
  return async (options = {}) => {
    const webDir = await builtWebDir();
    const home = options.home ?? mockHome(llm().url);
    const process = new DaemonProcess(home, ["--port", "0", ...(options.args ?? [])], ["daemon"], {
      env: { ...options.env, SHARD_WEB_DIR: webDir },
    });
    const entry = { process, clients: [] as DaemonClient[] };
    running.push(entry);
    const url = await process.url();
    const enrollmentUrl = await process.stdoutLine(/#enroll=/);
    return {
      process,
      url,
      enrollmentUrl,
      cwd: tempDir("cwd"),
      client: async () => {
        const c = await process.client();
        entry.clients.push(c);
        return c;
      },
    };
  };
}
