/**
 * How one runtime generation of an agent is launched on its placement (docs/placements.md):
 * locally as a child of the daemon (today's path), or through ssh, a container engine or a
 * command template, with the same JSONL on stdio. A remote runtime gets the agent's flags, an
 * owner tag for the orphan sweep, and nothing of the daemon's environment: its credentials
 * are that machine's own.
 */
import pkg from "../../../package.json" with { type: "json" };
import { type ForwardedLink, placementArgv } from "../../placements/placement-argv.ts";
import { LOCAL_PLACEMENT, type NamedPlacement } from "../../placements/placement-config.ts";
import { loadPlacements } from "../../placements/placements-file.ts";
import type { AgentManifest } from "./manifest.ts";
import { runtimeArgs } from "./runtime-args.ts";

export interface Launch {
  argv: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** Set for a remote placement: the hop, named in start failures ("ssh dev@build:22"). */
  where?: string;
  /** The `server_version` the runtime's hello must carry (a remote binary may be stale). */
  version?: string;
}

export interface LaunchContext {
  home: string;
  shardCommand: string[];
  env: Record<string, string | undefined>;
  /**
   * The daemon answers a runtime's requests on its stdio (./stdio-link-end.ts): a runtime on a
   * `command` or `container` placement gets `--daemon-link stdio`, so it has the `subagent` tool.
   */
  stdioLink?: boolean;
}

export function placementName(manifest: AgentManifest): string {
  return manifest.placement ?? LOCAL_PLACEMENT;
}

/** The placement's entry, or why it cannot be used (unknown name, or a bad entry). */
export function findPlacement(
  home: string,
  name: string,
): { ok: true; placement: NamedPlacement } | { ok: false; reason: string } {
  const file = loadPlacements(home);
  const placement = file.placements.get(name);
  if (placement) return { ok: true, placement };
  const reason =
    file.problems.get(name) ??
    file.problems.get("") ??
    `no placement "${name}" in $SHARD_HOME/placements.json (it has: ${[LOCAL_PLACEMENT, ...file.placements.keys()].join(", ")})`;
  return { ok: false, reason };
}

export function launchFor(
  manifest: AgentManifest,
  context: LaunchContext,
  link?: ForwardedLink,
): { ok: true; launch: Launch; placement?: NamedPlacement } | { ok: false; reason: string } {
  const agentId = manifest.agent_id;
  if (manifest.placement === undefined) {
    return {
      ok: true,
      launch: {
        argv: [...context.shardCommand, ...runtimeArgs(manifest)],
        cwd: manifest.cwd,
        // SHARD_AGENT_ID: the runtime's `subagent` tool names its agent as the parent.
        // TRACEPARENT: a subagent's spans go under the tool call that launched it (docs/telemetry.md).
        env: {
          ...context.env,
          SHARD_HOME: context.home,
          SHARD_AGENT_ID: agentId,
          ...(manifest.traceparent !== undefined ? { TRACEPARENT: manifest.traceparent } : {}),
        },
      },
    };
  }
  const found = findPlacement(context.home, manifest.placement);
  if (!found.ok) return found;
  const { placement } = found;
  // ssh carries its own link (a forwarded socket, ./subagent-link.ts); every other hop carries stdio.
  const linked = context.stdioLink === true && usesStdioLink(placement);
  const args = [
    ...runtimeArgs(manifest),
    "--owner-tag",
    agentId,
    ...(linked ? ["--daemon-link", "stdio", "--agent-id", agentId] : []),
  ];
  return {
    ok: true,
    placement,
    launch: {
      argv: placementArgv(placement, args, agentId, link),
      // The local end (ssh, the engine's client) runs in the daemon's home, with the daemon's
      // environment: ssh needs HOME and SSH_AUTH_SOCK, an engine its socket variables.
      cwd: context.home,
      env: context.env,
      where: describePlacement(placement),
      version: pkg.version,
    },
  };
}

/** Whether the runtime on `placement` reaches the daemon over its stdio (protocol-additions §27). */
export function usesStdioLink(placement: NamedPlacement | undefined): boolean {
  return placement?.kind === "command" || placement?.kind === "container";
}

/** The placement as a person knows it, for errors and the log. */
export function describePlacement(placement: NamedPlacement): string {
  switch (placement.kind) {
    case "ssh": {
      const user = placement.user !== undefined ? `${placement.user}@` : "";
      const port = placement.port !== undefined ? `:${placement.port}` : "";
      return `placement "${placement.name}" (ssh ${user}${placement.host}${port})`;
    }
    case "container":
      return `placement "${placement.name}" (${placement.engine} ${placement.image ?? placement.container})`;
    case "command":
      return `placement "${placement.name}" (${placement.argv[0]})`;
  }
}

/**
 * Whether an exit means the link dropped rather than the runtime failing: ssh exits 255 on its
 * own errors (connection lost, refused, host key) and with the remote command's status otherwise.
 * A container engine's client exits 125 on the engine's own errors, and 137 or 143 when the
 * container was killed or stopped from outside (`podman kill`/`stop`/`rm -f`, the engine going
 * down) or the client itself was killed: the runtime did not fail, the engine ended it.
 */
export function linkLost(placement: NamedPlacement | undefined, code: number): boolean {
  if (placement?.kind === "ssh") return code === 255;
  if (placement?.kind === "container") return CONTAINER_LINK_CODES.has(code);
  return false;
}

const CONTAINER_LINK_CODES = new Set([125, 137, 143]);
