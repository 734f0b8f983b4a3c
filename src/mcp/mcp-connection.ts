/**
 * One MCP server of one runtime: started when first needed, its tools listed, kept current by
 * `notifications/tools/list_changed`, restarted after a crash. A failure never throws out of
 * here: a call that cannot be made is an error result, and a start that fails or a server that
 * dies is reported once through `onError` (the runtime's non-fatal `error` event).
 *
 * Restart with backoff: `failures` counts failed starts and crashes since the last successful
 * call. The first restart after a crash is at once (at the next call or turn); after that the
 * waits double from 1 s to 30 s, and a call in the wait fails at once saying when the next try is.
 */
import { Client, ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import type { AnyTool, ToolContext, ToolResult } from "../contracts/tool.ts";
import { describeError } from "../support/describe-error.ts";
import { errorResult } from "../tools/tool-result.ts";
import type { McpServerState, McpServerStatus } from "../types/mcp-status.ts";
import type { McpServerConfig } from "./mcp-config.ts";
import { toToolResult } from "./mcp-result.ts";
import type { McpTimeouts } from "./mcp-timeouts.ts";
import { type ListedTool, type McpCaller, mcpToolName, toAgentTool } from "./mcp-tool.ts";
import { type OpenedTransport, openTransport, type TransportContext } from "./mcp-transport.ts";
import { redactor } from "./redact.ts";

export interface McpConnectionOptions {
  server: McpServerConfig;
  context: TransportContext;
  timeouts: McpTimeouts;
  clientVersion: string;
  /** A failed start or a crash, said once, secrets scrubbed. */
  onError: (message: string) => void;
  /** Its state or tool count changed (`status()`): the runtime's `mcp_status` event. */
  onChange?: () => void;
}

const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

interface Running {
  client: Client;
  opened: OpenedTransport;
}

export class McpConnection implements McpCaller {
  readonly server: string;
  private running: Running | undefined;
  /** The client being started: its list_changed counts already. */
  private startingClient: Client | undefined;
  /** A tools/list after list_changed; a call that caused one returns once it is done. */
  private refreshing: Promise<void> | undefined;
  private starting: Promise<Running | string> | undefined;
  private listed: AnyTool[] = [];
  private failures = 0;
  private retryAt = 0;
  private lastError = "";
  private stopped = false;
  /** Undefined until the first start. */
  private state: McpServerState | undefined;
  /** Aborts a start in progress when the agent closes: close() never waits out a connect timeout. */
  private readonly closing = new AbortController();
  private readonly redact: (text: string) => string;

  constructor(private readonly options: McpConnectionOptions) {
    this.server = options.server.name;
    this.redact = redactor(options.server.secrets);
  }

  /** The server's tools as last listed (kept while it restarts, so a call can restart it). */
  tools(): AnyTool[] {
    return this.listed;
  }

  /** What a client is shown: state, tool count, the last error (redacted); undefined before the first start. */
  status(): McpServerStatus | undefined {
    if (this.state === undefined) return undefined;
    const status: McpServerStatus = { name: this.server, state: this.state, tools: this.listed.length };
    if (this.state === "failed") status.error = this.lastError;
    return status;
  }

  /** Starts the server unless it runs or waits out its backoff (a turn's start). */
  async prepare(): Promise<void> {
    if (this.running || Date.now() < this.retryAt) return;
    await this.ensure();
  }

  async call(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
    const name = mcpToolName(this.server, tool);
    const running = await this.ensure();
    if (typeof running === "string") return errorResult(running);
    const { client } = running;
    try {
      const result = await client.callTool(
        { name: tool, arguments: args },
        {
          signal: ctx.signal,
          timeout: this.options.timeouts.callMs,
          onprogress: (p) =>
            ctx.onUpdate?.(
              `progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ""}${p.message ? `: ${p.message}` : ""}\n`,
            ),
        },
      );
      this.failures = 0;
      // A call that changed the server's tools answers once the new list is in: the model's
      // next request (right after this result) offers it.
      await this.refreshing;
      return this.redactResult(toToolResult(result, name));
    } catch (err) {
      if (ctx.signal.aborted) return errorResult(`${name}: aborted`);
      if (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout)
        return errorResult(
          `${name}: MCP server "${this.server}" did not answer within ${this.options.timeouts.callMs / 1000} s (mcp.call_timeout_ms in config.json)`,
        );
      if (
        this.running?.client !== client ||
        (err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed)
      )
        return errorResult(
          `${name}: MCP server "${this.server}" stopped during the call; it is started again at the next call`,
        );
      const why = this.redact(describeError(err));
      if (!brokeTheConnection(err)) return errorResult(`${name}: ${why}`);
      await this.drop(client, `lost its connection (${why})`);
      return errorResult(
        `${name}: the connection to MCP server "${this.server}" failed (${why}); it is started again at the next call`,
      );
    }
  }

  async close(): Promise<void> {
    this.stopped = true;
    this.closing.abort();
    const running =
      this.running ?? (await this.starting?.then((r) => (typeof r === "string" ? undefined : r)));
    this.running = undefined;
    await running?.client.close().catch(() => undefined);
  }

  /** The running server, or why there is none (secrets scrubbed). */
  private ensure(): Promise<Running | string> {
    if (this.stopped) return Promise.resolve(`MCP server "${this.server}" is stopped: the agent is closing`);
    if (this.running) return Promise.resolve(this.running);
    const wait = this.retryAt - Date.now();
    if (wait > 0)
      return Promise.resolve(
        `MCP server "${this.server}" is not running (${this.lastError}); the next start is in ${Math.ceil(wait / 1000)} s`,
      );
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async start(): Promise<Running | string> {
    const { server, context, timeouts, clientVersion } = this.options;
    this.setState("starting");
    let opened: OpenedTransport;
    try {
      opened = openTransport(server, context);
    } catch (err) {
      return this.failed(`could not start: ${describeError(err)}`);
    }
    const client: Client = new Client(
      { name: "shard", version: clientVersion },
      {
        listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => this.refresh(client) } },
      },
    );
    this.startingClient = client;
    try {
      const limits = { timeout: timeouts.connectMs, signal: this.closing.signal };
      await client.connect(opened.transport, limits);
      const { tools } = await client.listTools(undefined, limits);
      if (this.stopped) {
        await client.close().catch(() => undefined);
        return `MCP server "${this.server}" is stopped: the agent is closing`;
      }
      client.onclose = () => this.lost(client);
      this.running = { client, opened };
      this.setTools(tools);
      // A change announced while starting (servers add tools once initialized) is listed now.
      await this.refreshing;
      this.setState("ready");
      return this.running;
    } catch (err) {
      await client.close().catch(() => undefined);
      if (this.stopped) return `MCP server "${this.server}" is stopped: the agent is closing`;
      const timedOut = err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout;
      const why = timedOut
        ? `did not start within ${timeouts.connectMs / 1000} s (mcp.connect_timeout_ms in config.json)`
        : `could not start: ${describeError(err)}`;
      const stderr = opened.stderrTail().trim().split("\n").at(-1) ?? "";
      return this.failed(stderr === "" ? why : `${why}; its last stderr line: ${stderr}`);
    } finally {
      if (this.startingClient === client) this.startingClient = undefined;
    }
  }

  /** `notifications/tools/list_changed`: list again; a failed listing keeps the last list. */
  private refresh(client: Client): void {
    if (this.stopped || (this.running?.client !== client && this.startingClient !== client)) return;
    const listing = client.listTools(undefined, { timeout: this.options.timeouts.connectMs }).then(
      ({ tools }) => {
        if (this.running?.client === client || this.startingClient === client) this.setTools(tools);
      },
      () => undefined,
    );
    this.refreshing = listing;
    void listing.finally(() => {
      if (this.refreshing === listing) this.refreshing = undefined;
    });
  }

  /** The server went away while running: said once; the next call or turn starts it again. */
  private lost(client: Client): void {
    if (this.running?.client !== client || this.stopped) return;
    this.running = undefined;
    this.noteFailure("stopped unexpectedly");
    this.options.onError(
      `MCP server "${this.server}" stopped unexpectedly; it is started again at its next call`,
    );
  }

  /** A connection that failed under a call: closed, said once, started again when next needed. */
  private async drop(client: Client, why: string): Promise<void> {
    if (this.running?.client !== client || this.stopped) return;
    this.running = undefined;
    this.noteFailure(why);
    this.options.onError(`MCP server "${this.server}" ${why}; it is started again at its next call`);
    await client.close().catch(() => undefined);
  }

  private failed(why: string): string {
    this.noteFailure(why);
    const message = this.redact(`MCP server "${this.server}" ${why}`);
    this.options.onError(message);
    return message;
  }

  private noteFailure(why: string): void {
    this.failures += 1;
    this.lastError = this.redact(why);
    const backoff =
      this.failures <= 1 ? 0 : Math.min(FIRST_BACKOFF_MS * 2 ** (this.failures - 2), MAX_BACKOFF_MS);
    this.retryAt = Date.now() + backoff;
    this.setState("failed");
  }

  private setState(state: McpServerState): void {
    this.state = state;
    this.options.onChange?.();
  }

  private setTools(tools: readonly ListedTool[]): void {
    const agentTools: AnyTool[] = [];
    for (const listed of tools) {
      const tool = toAgentTool(listed, this);
      if ("refused" in tool) this.options.onError(tool.refused);
      else agentTools.push(tool);
    }
    const changed = agentTools.length !== this.listed.length;
    this.listed = agentTools;
    if (changed && this.state === "ready") this.options.onChange?.();
  }

  private redactResult(result: ToolResult): ToolResult {
    const { content } = result;
    if (content.kind === "text")
      return { ...result, content: { kind: "text", text: this.redact(content.text) } };
    if (content.kind === "error")
      return { ...result, content: { kind: "error", message: this.redact(content.message) } };
    return result;
  }
}

/**
 * Whether a failed call leaves the connection unusable (an HTTP server gone or its session lost,
 * a send that failed), so the next call should start afresh. A JSON-RPC error from the server,
 * or a result the SDK refused, says nothing about the connection.
 */
function brokeTheConnection(err: unknown): boolean {
  if (err instanceof ProtocolError) return false;
  if (err instanceof SdkHttpError) return true;
  if (err instanceof SdkError)
    return err.code === SdkErrorCode.SendFailed || err.code === SdkErrorCode.NotConnected;
  return true;
}
