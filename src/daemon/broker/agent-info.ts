/**
 * The registry view of one agent (docs/protocol.md, `AgentInfo`): durable manifest + live snapshot.
 */

import { LOCAL_PLACEMENT } from "../../placements/placement-config.ts";
import type { AgentInfo } from "../../types/agent-info.ts";
import type { AgentStatus } from "../../types/agent-state.ts";
import { askedSandbox } from "../registry/asked-sandbox.ts";
import type { DurableAgent } from "../registry/registry.ts";
import type { AgentChannel } from "./agent-channel.ts";

/** Where a stopped agent's sandbox is completed from: the daemon's environment and home. */
export interface SandboxDefaults {
  env: Record<string, string | undefined>;
  home: string;
}

export function agentInfo(
  agent: DurableAgent,
  channel: AgentChannel | undefined,
  defaults: SandboxDefaults,
): AgentInfo {
  const { manifest } = agent;
  const live = channel?.hasRuntimeState ? channel.snapshot : undefined;
  const modelId = live?.model?.id ?? manifest.model;
  const info: AgentInfo = {
    agent_id: manifest.agent_id,
    cwd: manifest.cwd,
    status: agentStatus(agent, channel),
    runtime_state: agent.runtimeState,
    created_at: manifest.created_at,
  };
  if (manifest.name !== undefined) info.name = manifest.name;
  if (modelId !== undefined) info.model = modelId;
  const provider = live?.model?.provider ?? modelId?.split("/")[0];
  if (provider) info.provider = provider;
  const mode = live?.mode ?? manifest.mode;
  if (mode !== undefined) info.mode = mode;
  if (live) info.usage = live.usage;
  if (manifest.parent_agent_id !== undefined) info.parent_agent_id = manifest.parent_agent_id;
  if (manifest.alias !== undefined) info.alias = manifest.alias;
  if (manifest.definition_name !== undefined) info.definition_name = manifest.definition_name;
  if (manifest.display_name !== undefined) info.display_name = manifest.display_name;
  if (live?.mcp_servers !== undefined) info.mcp_servers = live.mcp_servers;
  info.placement = manifest.placement ?? LOCAL_PLACEMENT;
  info.sandbox = live?.sandbox ?? askedSandbox(manifest, defaults.env, defaults.home);
  return info;
}

/** A live runtime reports its own status; without one the agent is idle, or `error` after a crash. */
export function agentStatus(agent: DurableAgent, channel: AgentChannel | undefined): AgentStatus {
  switch (agent.runtimeState) {
    case "running":
    case "stopping":
      return channel?.snapshot.status ?? "idle";
    case "failed":
      return "error";
    case "starting":
    case "stopped":
      return "idle";
  }
}
