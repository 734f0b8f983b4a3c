/**
 * `shard acp`'s ACP agent: the method handlers of one editor connection, each a call into the
 * session table and the Shard backend (direct runtimes or the daemon). See docs/acp.md.
 */
import * as acp from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import { AcpSession } from "./acp-session.ts";
import { mcpServersConfig } from "./mcp-servers-file.ts";
import { MODEL_OPTION_ID, modelOption, modeState } from "./session-config.ts";
import { SessionTable } from "./session-table.ts";
import { shardCall } from "./shard-call.ts";
import type { LinkTarget, ShardBackend } from "./shard-link.ts";

export interface AcpAgentOptions {
  backend: ShardBackend;
  version: string;
  /** The MCP transports of the editor's servers this mode passes on (direct: stdio and http). */
  mcpCapabilities: acp.McpCapabilities;
}

type SessionSetup = Pick<acp.NewSessionResponse, "modes" | "configOptions">;

export function acpAgent(options: AcpAgentOptions): acp.AgentApp {
  const { backend } = options;
  const sessions = new SessionTable();
  let client: acp.AgentContext | undefined;
  /** Whether the editor serves `fs/read_text_file` (its `initialize`). */
  let clientReads = false;

  const clientContext = (): acp.AgentContext => {
    if (client === undefined) throw RequestError.internalError(undefined, "no connection");
    return client;
  };

  /** Opens the agent for a session; `resume` names an earlier one. */
  const open = async (
    cwd: string,
    resume: string | undefined,
    mcpServers: readonly acp.McpServer[] | undefined,
    replay: boolean,
  ): Promise<AcpSession> => {
    // Direct: the runtime runs with --client-reads; daemon: the bridge attaches with serves_reads.
    const servesReads = clientReads;
    const session = new AcpSession({
      client: clientContext(),
      cwd,
      answersUi: backend.kind === "direct",
      servesReads,
    });
    const target: LinkTarget = { cwd, mcpServers: mcpServersConfig(mcpServers ?? []) };
    if (servesReads) target.clientReads = true;
    if (resume !== undefined) target.resume = resume;
    const opened = await backend.open(target, session.linkEvents);
    if (!opened.ok) {
      if (opened.error.code === "NOT_FOUND" && resume !== undefined)
        throw RequestError.resourceNotFound(resume);
      throw RequestError.internalError(
        { code: opened.error.code },
        `${opened.error.code}: ${opened.error.message}`,
      );
    }
    const id = opened.link.agentId ?? opened.sync.session_id;
    if (id === undefined) {
      await opened.link.close();
      throw RequestError.internalError(undefined, "the agent named no session");
    }
    await session.bind(id, opened.link, opened.sync, replay);
    await sessions.add(session);
    return session;
  };

  const setup = async (session: AcpSession): Promise<SessionSetup> => {
    const link = session.liveLink();
    const [modes, models] = await Promise.all([
      shardCall(link, { type: "list_modes" }),
      shardCall(link, { type: "list_models" }),
    ]);
    return { modes: modeState(modes), configOptions: [modelOption(models)] };
  };

  const app = acp
    .agent({ name: "shard" })
    .onConnect((connection) => {
      client = connection.client;
      // The editor quit: direct runtimes exit, daemon agents stay as durable agents.
      void connection.closed.then(() => sessions.closeAll());
    })
    .onRequest("initialize", ({ params }) => {
      clientReads = params.clientCapabilities?.fs?.readTextFile === true;
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: options.mcpCapabilities,
          sessionCapabilities: { resume: {}, close: {} },
        },
        agentInfo: { name: "shard", title: "Shard", version: options.version },
        authMethods: [],
      };
    })
    .onRequest("session/new", async ({ params }) => {
      const session = await open(params.cwd, undefined, params.mcpServers, false);
      return { sessionId: session.id, ...(await setup(session)) };
    })
    .onRequest("session/load", async ({ params }) => {
      const session = await open(params.cwd, params.sessionId, params.mcpServers, true);
      return setup(session);
    })
    .onRequest("session/resume", async ({ params }) => {
      const session = await open(params.cwd, params.sessionId, params.mcpServers, false);
      return setup(session);
    })
    .onRequest("session/close", async ({ params }) => {
      await sessions.remove(params.sessionId);
      return {};
    })
    .onRequest("session/prompt", ({ params }) => sessions.get(params.sessionId).prompt(params.prompt))
    .onNotification("session/cancel", async ({ params }) => {
      await sessions.find(params.sessionId)?.cancel();
    })
    .onRequest("session/set_mode", async ({ params }) => {
      await sessions.get(params.sessionId).setMode(params.modeId);
      return {};
    })
    .onRequest("session/set_config_option", async ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (params.configId !== MODEL_OPTION_ID || typeof params.value !== "string")
        throw RequestError.invalidParams(undefined, `unknown config option "${params.configId}"`);
      await session.setModel(params.value);
      return { configOptions: (await setup(session)).configOptions ?? [] };
    });
  return app;
}
