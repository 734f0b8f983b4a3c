/**
 * The local argv that runs `shard <args>` on a placement (docs/placements.md): through the
 * system `ssh`, a container engine's `exec -i`/`run -i`, or the placement's own template. The
 * JSONL on stdio is the same on every one; nothing here holds a credential.
 */
import { ownerLabel } from "./container-sweep.ts";
import type { ContainerPlacement, NamedPlacement, SshPlacement } from "./placement-config.ts";
import { shellWord } from "./shell-word.ts";

/** Where `shard placement install` puts the binary, and where an ssh placement runs it from. */
export const DEFAULT_REMOTE_SHARD = "~/.shard/bin/shard";

/**
 * The daemon's socket forwarded to the far side for the runtime's `subagent` tool
 * (src/daemon/registry/subagent-link.ts): ssh only.
 */
export interface ForwardedLink {
  agentId: string;
  localSocket: string;
  remoteDir: string;
  remoteSocket: string;
}

/** `owner`: the label a container run carries (docs/placements.md, orphans). */
export function placementArgv(
  placement: NamedPlacement,
  shardArgs: string[],
  owner?: string,
  link?: ForwardedLink,
): string[] {
  switch (placement.kind) {
    case "ssh":
      return sshArgv(placement, remoteCommand(placement, shardArgs, link), link);
    case "container":
      return containerArgv(placement, shardArgs, owner);
    case "command":
      // The template ends in `… shard agent`; the subcommand and its flags replace `agent`.
      return [...placement.argv.slice(0, -1), ...shardArgs];
  }
}

/**
 * ssh with no prompts (BatchMode: a missing key fails at once instead of asking on a terminal
 * nobody reads), no forwarding, no tty (the JSONL must pass byte for byte), and keepalives so a
 * dead link ends the session within seconds. `--` ends the options before the host.
 */
export function sshArgv(placement: SshPlacement, remote: string, link?: ForwardedLink): string[] {
  const argv = [
    "ssh",
    "-T",
    "-e",
    "none",
    "-o",
    "BatchMode=yes",
    "-o",
    "ConnectTimeout=10",
    "-o",
    "ServerAliveInterval=5",
    "-o",
    "ServerAliveCountMax=3",
    "-o",
    "PermitLocalCommand=no",
    // ClearAllForwardings clears the command line's -R too, so a link keeps the config's forwards.
    ...(link === undefined
      ? ["-o", "ClearAllForwardings=yes"]
      : ["-o", "StreamLocalBindUnlink=yes", "-R", `${link.remoteSocket}:${link.localSocket}`]),
  ];
  if (placement.ssh_config !== undefined) argv.push("-F", placement.ssh_config);
  if (placement.port !== undefined) argv.push("-p", String(placement.port));
  if (placement.user !== undefined) argv.push("-l", placement.user);
  argv.push("--", placement.host, remote);
  return argv;
}

/**
 * The remote shell command: `exec env K=V … shard <args>`, every word quoted. With a link, the
 * runtime also learns its agent and the forwarded socket, and a POSIX `sh` (whatever the login
 * shell) removes the link's directory once the runtime exits.
 */
export function remoteCommand(placement: SshPlacement, shardArgs: string[], link?: ForwardedLink): string {
  const env: Record<string, string> = {
    ...(placement.home !== undefined ? { SHARD_HOME: placement.home } : {}),
    ...placement.env,
    ...(link !== undefined ? { SHARD_AGENT_ID: link.agentId, SHARD_DAEMON_SOCKET: link.remoteSocket } : {}),
  };
  const words = ["env"];
  for (const [name, value] of Object.entries(env)) words.push(`${name}=${shellWord(value)}`);
  words.push(shellWord(placement.shard ?? DEFAULT_REMOTE_SHARD), ...shardArgs.map(shellWord));
  if (link === undefined) return `exec ${words.join(" ")}`;
  const script = `${words.join(" ")}; s=$?; rm -rf ${shellWord(link.remoteDir)}; exit $s`;
  return `exec sh -c ${shellWord(script)}`;
}

function containerArgv(placement: ContainerPlacement, shardArgs: string[], owner?: string): string[] {
  const env = Object.entries(placement.env ?? {}).flatMap(([name, value]) => ["-e", `${name}=${value}`]);
  const shard = placement.shard ?? "shard";
  if (placement.image === undefined)
    return [placement.engine, "exec", "-i", ...env, "--", placement.container ?? "", shard, ...shardArgs];
  const mounts = (placement.mounts ?? []).flatMap((m) => [
    "--mount",
    `type=bind,source=${m.source},target=${m.target}${m.readonly === true ? ",readonly" : ""}`,
  ]);
  const label = owner === undefined ? [] : ["--label", ownerLabel(owner)];
  return [
    placement.engine,
    "run",
    "--rm",
    "-i",
    ...label,
    ...mounts,
    ...env,
    "--",
    placement.image,
    shard,
    ...shardArgs,
  ];
}
