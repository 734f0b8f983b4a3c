/**
 * Builds an AgentRuntime from command-line level options: loads the model catalog, the
 * modes, the tools and the session (new or resumed), and restores mode, model and
 * reasoning level from a resumed session.
 */
import { realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ModelSpec } from "../contracts/provider.ts";
import type { SessionStore } from "../contracts/session-store.ts";
import { loadMcpConfig, loadMcpConfigFile } from "../mcp/mcp-config.ts";
import { McpServers } from "../mcp/mcp-servers.ts";
import { loadMcpTimeouts } from "../mcp/mcp-timeouts.ts";
import { openProjectServers } from "../mcp/project-servers.ts";
import { lazyPermissionGate } from "../permissions/lazy-gate.ts";
import { defaultModelId, loadModelCatalog, resolveModel, unknownModelMessage } from "../providers/catalog.ts";
import { AgentSandbox } from "../sandbox/agent-sandbox.ts";
import { reapPrivateTmpdirs } from "../sandbox/private-tmpdir.ts";
import { resolveSandboxSettings, type SandboxRequest } from "../sandbox/sandbox-settings.ts";
import { loadCompactionConfig } from "../session/compaction/compaction-config.ts";
import { createSession } from "../session/create-session.ts";
import { openSession } from "../session/open-session.ts";
import { describeError } from "../support/describe-error.ts";
import { newId } from "../support/ids.ts";
import { socketRoute } from "../tools/daemon-call.ts";
import { ProcessRegistry, processGroupsDir } from "../tools/process-registry.ts";
import { createRecallTool } from "../tools/recall.ts";
import { createBuiltinTools, selectTools } from "../tools/registry.ts";
import { createSubagentTool } from "../tools/subagent.ts";
import type { ToolCallBlock } from "../types/messages.ts";
import { type Failure, failure, type WireError } from "../wire/errors.ts";
import { ModelController, type ProviderOptions } from "./models/model-controller.ts";
import { loadModeCatalog, ModeController } from "./modes/mode-controller.ts";
import { DaemonLink, DEFAULT_DAEMON_LINK_TIMEOUT_MS } from "./requests/daemon-link.ts";
import { answerInterruptedToolCalls } from "./resume/interrupted-tool-calls.ts";
import { recordInterruptedTurn, turnWasCutOff } from "./resume/interrupted-turn.ts";
import { openPermissionAsks } from "./resume/open-permission-asks.ts";
import { deliverUndeliveredInputs, undeliveredInputs } from "./resume/undelivered-inputs.ts";
import { AgentRuntime } from "./runtime.ts";

export interface RuntimeConfig {
  cwd?: string;
  home: string;
  env: Record<string, string | undefined>;
  serverVersion: string;
  model?: string;
  mode?: string;
  session?: string;
  tools?: string[];
  basePrompt?: string;
  providerOptions?: ProviderOptions;
  /** The sandbox asked for by flags or `agent.create`; the config and defaults fill the rest. */
  sandbox?: SandboxRequest;
  /** USD the agent may spend (`--budget-usd`, `agent.create`): wins over the session's, like the mode. */
  budgetUsd?: number;
  /**
   * Resume a turn whose permission question was open when the last runtime died, asking it
   * again (`shard agent`, which a client drives); otherwise (`shard run`) such a call is
   * recorded as interrupted like any other.
   */
  askOpenPermissionsAgain?: boolean;
  /** More MCP servers, in mcp.json's shape, beside the user's (`--mcp-config`: an editor's, over ACP). */
  mcpConfigFile?: string;
  /** The client serves file reads (`shard agent --client-reads`: an editor's unsaved buffers). */
  clientReads?: boolean;
  /**
   * `--daemon-link stdio --agent-id ID`: the daemon that started this runtime on a placement
   * without a socket back is reached over stdio (protocol-additions §27) for `subagent`.
   */
  daemonLink?: { agentId: string };
}

export interface CreatedRuntime {
  runtime: AgentRuntime;
  /** Problems worth telling the user that did not stop the agent (e.g. a bad models.json). */
  warnings: WireError[];
}

/**
 * The RuntimeConfig field whose given value was refused (an unknown mode, model or tool, a
 * missing directory or session): bad input from the caller, which a CLI reports as a usage
 * error. Absent when the fault lies elsewhere (a saved session's mode, a locked session).
 */
export type RejectedSetting = "cwd" | "model" | "mode" | "session" | "tools" | "sandbox";

export interface CreateRuntimeFailure extends Failure {
  rejected?: RejectedSetting;
}

export function createRuntime(
  config: RuntimeConfig,
): { ok: true; value: CreatedRuntime } | CreateRuntimeFailure {
  const warnings: WireError[] = [];
  // Configuration mistakes are bad input; a repaired session is a (recovered) corruption.
  const configWarning = (message: string) => warnings.push({ code: "INVALID_REQUEST", message });
  const sessionWarning = (message: string) => warnings.push({ code: "SESSION_CORRUPT", message });
  const catalog = loadModelCatalog(config.home, config.env);
  for (const e of catalog.errors) configWarning(`${e.file}: ${e.field}: ${e.reason}`);

  // A new session is created only once every setting is known to be good: a refused flag
  // leaves nothing behind. It records the mode and model it starts with, for the next resume.
  const located = locateSession(config, sessionWarning);
  if (!located.ok) return located;
  const { cwd, resumed, openAsks } = located;
  const refuse = (refused: CreateRuntimeFailure): CreateRuntimeFailure => {
    resumed?.close();
    return refused;
  };

  const modes = loadModeCatalog([join(cwd, ".shard", "modes"), join(config.home, "modes")], (w) =>
    configWarning(`${w.file}: ${w.reason}`),
  );

  const saved = resumed?.state() ?? { reasoning: {} };

  const modeName = config.mode ?? saved.mode ?? "build";
  const modeController = new ModeController(modes, modeName);
  if (!modes.some((m) => m.name === modeName)) {
    const unknown = failure(
      "NOT_FOUND",
      `unknown mode "${modeName}". Modes: ${modes.map((m) => m.name).join(", ")}`,
    );
    return refuse(rejectedIf(config.mode, "mode", unknown));
  }

  const modelId = config.model ?? saved.model ?? defaultModelId(catalog, config.env);
  const spec: ModelSpec | undefined = resolveModel(catalog, modelId);
  if (!spec) {
    const unknown = failure("NOT_FOUND", unknownModelMessage(catalog, modelId));
    return refuse(rejectedIf(config.model, "model", unknown));
  }

  const sessionRef: { current?: SessionStore } = {};
  const recall = createRecallTool(() => {
    if (!sessionRef.current) throw new Error("recall ran before the session was open");
    return sessionRef.current;
  });
  // Like the mode: a flag (or `agent.create`) wins, then the mode the session last recorded
  // (`set_sandbox` included), then the environment, the config and the default.
  const sandboxMode = config.sandbox?.mode ?? saved.sandbox;
  const sandboxRequest = { ...config.sandbox, ...(sandboxMode !== undefined ? { mode: sandboxMode } : {}) };
  const sandboxSettings = resolveSandboxSettings(sandboxRequest, config.env, config.home);
  for (const w of sandboxSettings.warnings) configWarning(w);
  const opened = AgentSandbox.open({ settings: sandboxSettings, cwd, home: config.home, env: config.env });
  if (!opened.ok) return refuse(rejectedIf(config.sandbox?.mode, "sandbox", opened));
  const sandbox = opened.sandbox;
  for (const w of sandbox.startWarnings()) configWarning(w);
  const unconfined = sandbox.state().unavailable;
  if (unconfined !== undefined)
    configWarning(`the sandbox is unavailable, so commands run unconfined: ${unconfined} (docs/sandbox.md)`);

  // Groups left running by an agent on this home that was killed -9 die before new work starts.
  const processes = new ProcessRegistry(processGroupsDir(config.home));
  let tools = [...createBuiltinTools({ processes, sandbox }), recall];
  // A runtime the daemon started knows its durable agent id: it may launch subagents there. On
  // an ssh placement the daemon is reached through the link ssh forwards, on a command or
  // container placement over this runtime's own stdio (docs/placements.md).
  const daemonLink =
    config.daemonLink === undefined
      ? undefined
      : new DaemonLink((event) => runtime.emit(event), linkTimeoutMs(config.env));
  const agentId = config.daemonLink?.agentId ?? config.env.SHARD_AGENT_ID;
  const socketPath = config.env.SHARD_DAEMON_SOCKET || join(config.home, "daemon.sock");
  const daemon = daemonLink ?? socketRoute(socketPath);
  if (agentId) tools.push(createSubagentTool({ daemon, agentId }));
  if (config.tools) {
    const selected = selectTools(tools, config.tools);
    if (!selected.ok) return refuse({ ...failure("INVALID_REQUEST", selected.message), rejected: "tools" });
    tools = selected.tools;
  }

  const session = resumed ?? createSession({ home: config.home, cwd, mode: modeName, model: spec.id });
  sessionRef.current = session;
  processes.reapLeftovers();
  // Private TMPDIRs of runtimes on this home that were killed -9 go too.
  reapPrivateTmpdirs(config.home);
  const models = new ModelController(
    catalog.models,
    (id) => resolveModel(catalog, id) ?? unknownModelMessage(catalog, id),
    spec,
    config.env,
    config.providerOptions,
  );
  for (const [model, effort] of Object.entries(saved.reasoning)) models.setEffort(model, effort);
  // A resume with another --mode/--model (or of a session that never recorded them) runs with
  // different settings from those on record: record them, so the next resume keeps them.
  const recorded = session.state();
  try {
    if (recorded.mode !== modeName) session.append({ type: "mode_change", mode: modeName });
    if (recorded.model !== spec.id) session.append({ type: "model_change", model: spec.id });
    if (sandboxMode !== undefined && recorded.sandbox !== sandboxMode)
      session.append({ type: "sandbox_change", mode: sandboxMode });
    // The runtime reads its budget back from the session (src/agent/budget), set_budget's included.
    if (config.budgetUsd !== undefined && recordedBudget(session) !== config.budgetUsd)
      session.append({ type: "budget_change", budget_usd: config.budgetUsd });
  } catch (err) {
    session.close();
    return failure("INTERNAL_ERROR", `session write failed: ${describeError(err)}`);
  }

  const compaction = loadCompactionConfig(config.home);
  for (const w of compaction.warnings) configWarning(w);
  // The user's MCP servers ($SHARD_HOME/mcp.json), and the project's (.mcp.json at the repository
  // root), which wait for the person's trust (docs/mcp.md); a `--tools` selection leaves both out.
  let mcp: McpServers | undefined;
  if (!config.tools) {
    const mcpConfig = loadMcpConfig(config.home, config.env);
    if (config.mcpConfigFile !== undefined) {
      const extra = loadMcpConfigFile(config.mcpConfigFile, config.env);
      const named = new Set(extra.servers.map((s) => s.name));
      // A server the caller names replaces the user's of that name.
      mcpConfig.servers = [...mcpConfig.servers.filter((s) => !named.has(s.name)), ...extra.servers];
      mcpConfig.warnings.push(...extra.warnings);
    }
    for (const w of mcpConfig.warnings) configWarning(w);
    const project = openProjectServers({
      cwd,
      home: config.home,
      env: config.env,
      userServers: mcpConfig.servers,
      onWarning: (message) => runtime.emit({ type: "error", code: "INVALID_REQUEST", message, fatal: false }),
    });
    for (const w of project.warnings) configWarning(w);
    if (mcpConfig.servers.length > 0 || project.trust !== undefined) {
      const timeouts = loadMcpTimeouts(config.home);
      for (const w of timeouts.warnings) configWarning(w);
      mcp = new McpServers({
        servers: mcpConfig.servers,
        ...(project.trust !== undefined ? { project: project.trust } : {}),
        context: { cwd, env: config.env, sandbox },
        timeouts: timeouts.timeouts,
        clientVersion: config.serverVersion,
        onError: (message) => runtime.emit({ type: "error", code: "TOOL_ERROR", message, fatal: false }),
        onStatus: (servers) => runtime.emit({ type: "mcp_status", servers }),
      });
    }
  }
  const runtime = new AgentRuntime({
    cwd,
    home: config.home,
    serverVersion: config.serverVersion,
    session,
    tools,
    ...(openAsks.length > 0 ? { openAsks } : {}),
    gate: lazyPermissionGate({
      home: config.home,
      cwd,
      // An untrusted or unwritable grants file, found at a tool call: tell the client.
      onWarning: (message) => runtime.emit({ type: "error", code: "INVALID_REQUEST", message, fatal: false }),
      sandbox,
    }),
    sandbox,
    ...(mcp !== undefined ? { toolSource: mcp } : {}),
    ...(config.clientReads === true ? { clientReads: true } : {}),
    ...(daemonLink !== undefined ? { daemonLink } : {}),
    ...(agentId ? { agentId } : {}),
    modes: modeController,
    models,
    compaction: compaction.config,
    ...(config.basePrompt ? { basePrompt: config.basePrompt } : {}),
  });
  // The recall tool reads the session the runtime writes, which a conversation restore replaces by a fork.
  sessionRef.current = runtime.session;
  return { ok: true, value: { runtime, warnings } };
}

/**
 * Where the agent runs, and the session it resumes: a resumed session runs in its recorded
 * project unless `--cwd` says otherwise; a new one (created by the caller once every setting
 * checks out) in `--cwd` or the current directory.
 */
function locateSession(
  config: RuntimeConfig,
  sessionWarning: (message: string) => void,
): { ok: true; resumed?: SessionStore; cwd: string; openAsks: ToolCallBlock[] } | CreateRuntimeFailure {
  if (!config.session) {
    const cwd = resolveCwd(config.cwd ?? process.cwd());
    if (!cwd.ok) return rejectedIf(config.cwd, "cwd", cwd);
    return { ok: true, cwd: cwd.path, openAsks: [] };
  }
  const opened = openSession({
    home: config.home,
    idOrPath: config.session,
    onWarning: (w) => sessionWarning(`session: ${w.kind}: ${w.message}`),
  });
  if (!opened.ok) {
    const refused: Failure = { ok: false, error: opened.error };
    return opened.error.code === "NOT_FOUND" ? { ...refused, rejected: "session" } : refused;
  }
  const session = opened.store;
  const cwd = resolveCwd(config.cwd ?? session.header.cwd);
  if (!cwd.ok) {
    session.close();
    return rejectedIf(config.cwd, "cwd", cwd);
  }
  // A kill mid-tool leaves a call without a result; answer it before anything is appended,
  // unless its permission question was still open: that call never ran and is asked again.
  // A kill mid-turn that is not resumed so is marked in the transcript, after those results.
  // Then acknowledged steer/follow-up messages that never reached the model join the history.
  let openAsks: ToolCallBlock[];
  try {
    // Undelivered messages join the history now, after the calls: then the calls cannot be
    // answered any more (a result must follow its call), and are recorded as interrupted.
    openAsks =
      config.askOpenPermissionsAgain === true && undeliveredInputs(session).length === 0
        ? openPermissionAsks(session)
        : [];
    const cutOff = openAsks.length === 0 && turnWasCutOff(session);
    const repaired = answerInterruptedToolCalls(session, newId, new Set(openAsks.map((c) => c.id)));
    if (repaired > 0) sessionWarning(`session: ${repaired} interrupted tool call(s) recorded as failed`);
    if (cutOff) recordInterruptedTurn(session);
    const restored = deliverUndeliveredInputs(session);
    if (restored > 0)
      sessionWarning(`session: ${restored} queued message(s) the agent had not delivered were restored`);
  } catch (err) {
    session.close();
    return failure("INTERNAL_ERROR", `session write failed: ${describeError(err)}`);
  }
  return { ok: true, resumed: session, cwd: cwd.path, openAsks };
}

function resolveCwd(dir: string): { ok: true; path: string } | Failure {
  try {
    const path = realpathSync(resolve(dir));
    if (!statSync(path).isDirectory())
      return failure("INVALID_REQUEST", `working directory ${dir} is not a directory`);
    return { ok: true, path };
  } catch {
    return failure("NOT_FOUND", `working directory ${dir} does not exist`);
  }
}

/** Marks `refused` as caused by `setting` when the config gave that value (not a default). */
function rejectedIf(given: unknown, setting: RejectedSetting, refused: Failure): CreateRuntimeFailure {
  return given === undefined ? refused : { ...refused, rejected: setting };
}

function recordedBudget(session: SessionStore): number | null | undefined {
  return session.entries().findLast((e) => e.type === "budget_change")?.budget_usd ?? undefined;
}

/** The daemon link's base timeout; SHARD_DAEMON_LINK_TIMEOUT_MS shortens it (tests). */
function linkTimeoutMs(env: Record<string, string | undefined>): number {
  const set = Number(env.SHARD_DAEMON_LINK_TIMEOUT_MS);
  return Number.isFinite(set) && set > 0 ? set : DEFAULT_DAEMON_LINK_TIMEOUT_MS;
}
