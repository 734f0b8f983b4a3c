/**
 * A real ACP client (the official SDK's client side) driving `shard acp` as a subprocess over
 * stdio, as an editor does. It records every `session/update` per session and hands each
 * `session/request_permission` to the test's handler.
 */
import * as acp from "@agentclientprotocol/sdk";
import { SHARD_MAIN } from "../../agent/support/agent-process.ts";
import { CHILD_ENV } from "../../support/child-env.ts";

export type PermissionHandler = (
  request: acp.RequestPermissionRequest,
  signal: AbortSignal,
) => Promise<acp.RequestPermissionResponse> | acp.RequestPermissionResponse;

export class AcpProcess {
  readonly proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
  readonly connection: acp.ClientConnection;
  readonly updates = new Map<string, acp.SessionUpdate[]>();
  stderr = "";
  onPermission: PermissionHandler = () => ({ outcome: { outcome: "cancelled" } });
  /** The editor's buffers, by absolute path: what `fs/read_text_file` answers (else an error). */
  readonly buffers = new Map<string, string>();
  /** Every path the agent asked `fs/read_text_file` for, in order. */
  readonly readsAsked: string[] = [];
  /** Runs before the editor answers a `fs/read_text_file` (a test holds the answer here). */
  beforeRead: (path: string) => Promise<void> | void = () => {};
  private readonly updateWaiters: (() => void)[] = [];

  constructor(home: string, args: string[] = [], env: Record<string, string> = {}) {
    const proc = Bun.spawn([process.execPath, SHARD_MAIN, "acp", ...args], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...CHILD_ENV, HOME: home, SHARD_HOME: home, SHARD_RETRY_BASE_MS: "5", ...env },
    });
    this.proc = proc;
    void (async () => {
      const text = new TextDecoder();
      for await (const chunk of proc.stderr) this.stderr += text.decode(chunk, { stream: true });
    })();
    const stdin = this.proc.stdin;
    const output = new WritableStream<Uint8Array>({
      write: (chunk) => {
        stdin.write(chunk);
        stdin.flush();
      },
      close: () => {
        stdin.end();
      },
    });
    const app = acp
      .client({ name: "shard-acp-test" })
      .onNotification("session/update", ({ params }) => {
        const list = this.updates.get(params.sessionId) ?? [];
        list.push(params.update);
        this.updates.set(params.sessionId, list);
        for (const wake of this.updateWaiters.splice(0)) wake();
      })
      .onRequest("session/request_permission", ({ params, signal }) => this.onPermission(params, signal))
      .onRequest("fs/read_text_file", async ({ params }) => {
        this.readsAsked.push(params.path);
        await this.beforeRead(params.path);
        const content = this.buffers.get(params.path);
        if (content === undefined) throw acp.RequestError.resourceNotFound(params.path);
        return { content };
      });
    this.connection = app.connect(acp.ndJsonStream(output, this.proc.stdout));
  }

  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  /** `readTextFile`: the editor offers `fs/read_text_file` (its unsaved buffers). */
  initialize(options: { readTextFile?: boolean } = {}): Promise<acp.InitializeResponse> {
    return this.agent.request("initialize", {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {
        fs: { readTextFile: options.readTextFile === true, writeTextFile: false },
        terminal: false,
      },
      clientInfo: { name: "shard-acp-test", version: "0" },
    });
  }

  updatesOf(sessionId: string): acp.SessionUpdate[] {
    return this.updates.get(sessionId) ?? [];
  }

  /** Resolves once an update of `sessionId` satisfies `match` (the later update is the barrier). */
  async waitForUpdate(
    sessionId: string,
    match: (update: acp.SessionUpdate) => boolean,
    timeoutMs = 30_000,
  ): Promise<acp.SessionUpdate> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.updatesOf(sessionId).find(match);
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(`no matching update for ${sessionId}; stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.updateWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Ends the editor's side: `shard acp` ends its sessions and exits. */
  async close(): Promise<number> {
    this.connection.close();
    try {
      this.proc.stdin.end();
    } catch {
      // already closed
    }
    return this.proc.exited;
  }
}

/** The text of the agent's message chunks, in order. */
export function answerText(updates: readonly acp.SessionUpdate[]): string {
  return updates
    .flatMap((u) =>
      u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : [],
    )
    .join("");
}

/** The option of `kind` the agent offered. */
export function optionOf(request: acp.RequestPermissionRequest, kind: acp.PermissionOptionKind): string {
  const option = request.options.find((o) => o.kind === kind);
  if (option === undefined) throw new Error(`no ${kind} option in ${JSON.stringify(request.options)}`);
  return option.optionId;
}
