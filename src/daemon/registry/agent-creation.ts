/**
 * The manifest of a new durable agent (docs/protocol.md §10.2 `agent.create`): a managed create
 * with a canonical cwd and a `provider/model` id, or the legacy adoption of an existing session —
 * once per session, from its own project, and only if it can be restored.
 */
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, normalize } from "node:path";
import { parseMcpConfig } from "../../mcp/mcp-config.ts";
import { LOCAL_PLACEMENT } from "../../placements/placement-config.ts";
import { isValidHost } from "../../sandbox/sandbox-settings.ts";
import { newId } from "../../support/ids.ts";
import type { AgentCreateCommand } from "../../types/orchestrator.ts";
import { type Failure, failure } from "../../wire/errors.ts";
import type { AgentManifest } from "./manifest.ts";
import { lookUpSession } from "./session-lookup.ts";

/** `traceparent`: the daemon's own (a subagent job's creating span), never a client's agent.create field. */
export type CreateParams = Omit<AgentCreateCommand, "type" | "id"> & { traceparent?: string };

export interface CreationContext {
  home: string;
  /** The agent already driving a session, if any. */
  adoptedBy(sessionId: string): string | undefined;
  /** Why `model` names no model the runtime could run, or undefined when it names one. */
  modelProblem(model: string): string | undefined;
  /** Why `placement` cannot run a runtime (unknown, or a bad placements.json entry), or undefined. */
  placementProblem(placement: string): string | undefined;
  /** The environment runtimes start with: what `${VAR}` in `mcp_servers` expands from. */
  env: Readonly<Record<string, string | undefined>>;
}

export function newManifest(
  params: CreateParams,
  context: CreationContext,
  /** Preallocated by the daemon (a subagent run names its child before it exists); never a client's. */
  agentId: string = newId("agent"),
): { ok: true; manifest: AgentManifest } | Failure {
  const placement = params.placement === LOCAL_PLACEMENT ? undefined : params.placement;
  if (placement !== undefined) return remoteManifest(params, placement, context, agentId);
  const cwd = canonicalDirectory(params.cwd);
  if (!cwd.ok) return cwd;
  if (params.session_id !== undefined) {
    // The mode goes to the session's creation (runtime-args.ts); an adopted one keeps its own.
    if (params.sandbox !== undefined) {
      return failure(
        "INVALID_REQUEST",
        'agent.create: field "sandbox": an adopted session keeps its recorded sandbox; send set_sandbox once it runs',
      );
    }
    if (params.budget_usd !== undefined) {
      return failure(
        "INVALID_REQUEST",
        'agent.create: field "budget_usd": an adopted session keeps its recorded budget; send set_budget once it runs',
      );
    }
    const adoptable = checkAdoptable(params.session_id, cwd.path, context);
    if (!adoptable.ok) return adoptable;
  }
  const badHost = params.network_allow?.find((host) => !isValidHost(host));
  if (badHost !== undefined) {
    return failure(
      "INVALID_REQUEST",
      `agent.create: field "network_allow": "${badHost}" is not a host name (example.com or *.example.com)`,
    );
  }
  const mcpProblem = mcpServersProblem(params.mcp_servers, context.env);
  if (mcpProblem !== undefined) return failure("INVALID_REQUEST", mcpProblem);
  const model = modelId(params.model, params.provider);
  // Checked before anything is written: an unknown model leaves no agent behind.
  const modelProblem = model === undefined ? undefined : context.modelProblem(model);
  if (modelProblem !== undefined)
    return failure("INVALID_REQUEST", `agent.create: field "model": ${modelProblem}`);
  return { ok: true, manifest: buildManifest(params, agentId, cwd.path, model) };
}

/**
 * On another placement the cwd, the session and the model catalog live on that placement: the
 * cwd must be absolute (it is not looked at here), a session is created there, never adopted
 * from this machine, and the model is checked by the runtime that will run it.
 */
function remoteManifest(
  params: CreateParams,
  placement: string,
  context: CreationContext,
  agentId: string,
): { ok: true; manifest: AgentManifest } | Failure {
  const problem = context.placementProblem(placement);
  if (problem !== undefined) return failure("INVALID_REQUEST", `agent.create: field "placement": ${problem}`);
  if (!isAbsolute(params.cwd))
    return failure(
      "INVALID_REQUEST",
      `agent.create: field "cwd": on placement "${placement}" it must be an absolute path there`,
    );
  if (params.session_id !== undefined)
    return failure(
      "INVALID_REQUEST",
      `agent.create: field "session_id": only a local agent adopts a session; placement "${placement}" starts a new one`,
    );
  if (params.mcp_servers !== undefined && Object.keys(params.mcp_servers).length > 0)
    return failure(
      "INVALID_REQUEST",
      `agent.create: field "mcp_servers": an agent's own MCP servers run on this machine only; placement "${placement}" uses its own $SHARD_HOME/mcp.json`,
    );
  const badHost = params.network_allow?.find((host) => !isValidHost(host));
  if (badHost !== undefined)
    return failure(
      "INVALID_REQUEST",
      `agent.create: field "network_allow": "${badHost}" is not a host name (example.com or *.example.com)`,
    );
  const manifest = buildManifest(
    params,
    agentId,
    normalize(params.cwd),
    modelId(params.model, params.provider),
  );
  return { ok: true, manifest: { ...manifest, placement } };
}

function buildManifest(
  params: CreateParams,
  agentId: string,
  cwd: string,
  model: string | undefined,
): AgentManifest {
  return {
    version: 1,
    agent_id: agentId,
    cwd,
    created_at: Date.now(),
    headless_policy: params.headless_policy ?? "deny",
    ...(params.session_id !== undefined ? { session_id: params.session_id } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(params.mode !== undefined ? { mode: params.mode } : {}),
    ...(params.tools !== undefined ? { tools: params.tools } : {}),
    ...(params.name !== undefined ? { name: params.name } : {}),
    ...(params.parent_agent_id !== undefined ? { parent_agent_id: params.parent_agent_id } : {}),
    ...(params.depth !== undefined ? { depth: params.depth } : {}),
    ...(params.launch_policy !== undefined ? { launch_policy: params.launch_policy } : {}),
    ...(params.alias !== undefined ? { alias: params.alias } : {}),
    ...(params.definition_name !== undefined ? { definition_name: params.definition_name } : {}),
    ...(params.display_name !== undefined ? { display_name: params.display_name } : {}),
    ...(params.ephemeral === true ? { ephemeral: true as const } : {}),
    ...(params.traceparent !== undefined ? { traceparent: params.traceparent } : {}),
    ...(params.sandbox !== undefined ? { sandbox: params.sandbox } : {}),
    ...(params.sandbox_policy !== undefined ? { sandbox_policy: params.sandbox_policy } : {}),
    ...(params.budget_usd !== undefined ? { budget_usd: params.budget_usd } : {}),
    ...(params.network_allow !== undefined && params.network_allow.length > 0
      ? { network_allow: [...new Set(params.network_allow)] }
      : {}),
    ...(params.mcp_servers !== undefined && Object.keys(params.mcp_servers).length > 0
      ? { mcp_servers: params.mcp_servers }
      : {}),
  };
}

/**
 * The runtime would skip a bad server with a warning only its log shows; the creator is told
 * now instead, by the same reading (names, shapes, `${VAR}`s), and nothing is created.
 */
function mcpServersProblem(
  servers: CreateParams["mcp_servers"],
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (servers === undefined) return undefined;
  const { warnings } = parseMcpConfig({ mcpServers: servers }, env, 'agent.create: field "mcp_servers"');
  return warnings[0];
}

function checkAdoptable(sessionId: string, cwd: string, context: CreationContext): { ok: true } | Failure {
  const owner = context.adoptedBy(sessionId);
  if (owner !== undefined) {
    return failure(
      "INVALID_REQUEST",
      `agent.create: session ${sessionId} is already adopted by agent ${owner}; attach to it, or use session.activate`,
    );
  }
  const session = lookUpSession(context.home, sessionId);
  if (!session.ok) return session;
  const sessionCwd = canonicalDirectory(session.cwd);
  if (!sessionCwd.ok || sessionCwd.path !== cwd) {
    return failure(
      "INVALID_REQUEST",
      `agent.create: session ${sessionId} belongs to another project (${session.cwd}); pass its cwd`,
    );
  }
  return { ok: true };
}

function canonicalDirectory(dir: string): { ok: true; path: string } | Failure {
  try {
    const path = realpathSync(dir);
    if (statSync(path).isDirectory()) return { ok: true, path };
    return failure("INVALID_REQUEST", `agent.create: field "cwd": ${dir} is not a directory`);
  } catch {
    return failure(
      "INVALID_REQUEST",
      `agent.create: field "cwd": ${dir} does not exist; create it or pass another directory`,
    );
  }
}

/** A model id on the wire is `provider/model`; `provider` + a bare `model` mean the same. */
function modelId(model: string | undefined, provider: string | undefined): string | undefined {
  if (model === undefined) return undefined;
  if (provider !== undefined && !model.includes("/")) return `${provider}/${model}`;
  return model;
}
