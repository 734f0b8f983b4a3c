/**
 * `agent.changes` (docs/protocol-additions.md §14). The answer comes later (a snapshot of a big
 * tree takes a while), so the asking connection's other commands go on meanwhile. One snapshot
 * per agent at a time: askers who come while one runs share the next one, so a burst of asks
 * (several tabs, each refreshing as the agent edits) costs at most two git runs.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describeError } from "../../support/describe-error.ts";
import type { AgentChangesResult } from "../../types/agent-changes.ts";
import { type Failure, failure } from "../../wire/errors.ts";
import type { BrokerContext } from "../broker/broker-context.ts";
import type { HandlersOf } from "../broker/command-handlers.ts";
import type { AgentManifest } from "../registry/manifest.ts";
import { findPlacement } from "../registry/placement-launch.ts";
import { WorkspaceStore } from "../workspaces/workspace-store.ts";
import { recordBaseline } from "./baseline.ts";
import { type ChangesHost, localChangesHost, placementChangesHost } from "./changes-host.ts";

type Answer = { ok: true; result: AgentChangesResult } | Failure;

/** Temporary indexes live here; whatever a killed daemon left is cleared at start. */
export function changesScratch(home: string): string {
  const dir = join(home, "changes-scratch");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export interface HostContext {
  home: string;
  env: Record<string, string | undefined>;
  scratch: string;
}

/** Where the agent's git runs: this machine, or its placement (or why that is unknown). */
export function changesHostOf(
  manifest: AgentManifest,
  context: HostContext,
): { ok: true; host: ChangesHost } | { ok: false; reason: string } {
  if (manifest.placement === undefined) return { ok: true, host: localChangesHost(context.scratch) };
  const found = findPlacement(context.home, manifest.placement);
  if (!found.ok) return found;
  return { ok: true, host: placementChangesHost(found.placement, context) };
}

/** The registry's `recordBaseline` option. */
export function baselineRecorder(context: HostContext, log: (line: string) => void) {
  return async (manifest: AgentManifest) => {
    const host = changesHostOf(manifest, context);
    if (!host.ok) {
      log(`agent ${manifest.agent_id}: no baseline for its Changes view: ${host.reason}`);
      return undefined;
    }
    return recordBaseline(manifest.agent_id, manifest.cwd, host.host, log);
  };
}

export function changesHandlers(
  ctx: BrokerContext,
  context: HostContext,
  log: (line: string) => void,
): HandlersOf<"changes"> {
  const queued = new Map<string, Promise<Answer>>();
  const tails = new Map<string, Promise<unknown>>();
  const workspaces = new WorkspaceStore(context.home);

  const compute = async (agentId: string): Promise<Answer> => {
    const agent = ctx.registry.get(agentId);
    if (agent === undefined) return failure("NOT_FOUND", `no agent ${agentId}; agent.list shows the agents`);
    const workspace = workspaces.load(log).find((w) => w.bindings.some((b) => b.agent_id === agentId));
    const host = changesHostOf(agent.manifest, context);
    if (!host.ok) return failure("CONFLICT", `agent.changes: ${host.reason}`);
    try {
      // Loaded on the first ask: an idle daemon never pays for the diff parser.
      const { agentChanges } = await import("./agent-changes.ts");
      const changes = await agentChanges(agent.manifest, workspace, { host: host.host, log });
      return changes.ok ? { ok: true, result: changes.value } : changes;
    } catch (err) {
      log(`agent ${agentId}: agent.changes failed: ${describeError(err)}`);
      return failure("INTERNAL_ERROR", `agent.changes: ${describeError(err)}`);
    }
  };

  const next = (agentId: string): Promise<Answer> => {
    const waiting = queued.get(agentId);
    if (waiting !== undefined) return waiting;
    const tail = tails.get(agentId) ?? Promise.resolve();
    const run = tail.then(() => {
      queued.delete(agentId);
      return compute(agentId);
    });
    queued.set(agentId, run);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(agentId, settled);
    void settled.then(() => {
      if (tails.get(agentId) === settled) tails.delete(agentId);
    });
    return run;
  };

  return {
    "agent.changes": (_client, command) => {
      if (ctx.registry.get(command.agent_id) === undefined) {
        return failure("NOT_FOUND", `no agent ${command.agent_id}; agent.list shows the agents`);
      }
      return { later: next(command.agent_id) };
    },
  };
}
