/**
 * Whether a project's `.mcp.json` servers may start (docs/mcp.md, "Project servers and trust"):
 * a remembered answer for this repository and this exact content decides; otherwise, at the
 * first turn and before any server starts, the person is asked through a `permission_request`
 * (`tool_name: "mcp_trust"`) that names every command and URL, never a value from `env` or
 * `headers` (secrets). Only a person's choice is remembered: a bare decision (headless, `shard
 * run`), a cancel (abort, no responder) or "not now" leaves the file untrusted, recording nothing.
 */
import type { PermissionAnswer, PermissionAsk, PermissionAsker } from "../contracts/permission-gate.ts";
import type { PermissionDetail } from "../types/permissions.ts";
import { isStdioServer, type McpServerConfig } from "./mcp-config.ts";
import type { ProjectMcpConfig } from "./project-config.ts";
import type { McpTrustStore } from "./trust-store.ts";

export const CHOICE_TRUST = "trust";
export const CHOICE_NOT_NOW = "not_now";
export const CHOICE_DENY_TRUST = "deny";

export interface ProjectTrustOptions {
  project: ProjectMcpConfig;
  store: McpTrustStore;
  onWarning: (message: string) => void;
}

type Verdict = "trusted" | "untrusted" | "ask_again";

export class ProjectTrust {
  /** Settled once for this runtime, except after a cancelled question (asked again next turn). */
  private settled: "trusted" | "untrusted" | undefined;
  /** The question in flight: a second caller waits for the same answer. */
  private deciding: Promise<"trusted" | "untrusted" | undefined> | undefined;

  constructor(private readonly options: ProjectTrustOptions) {}

  /** The project's servers if the file is trusted, else none; asks when nothing is remembered. */
  async servers(ask: PermissionAsker, signal: AbortSignal): Promise<McpServerConfig[]> {
    if (this.settled === undefined) {
      this.deciding ??= this.decide(ask, signal).finally(() => {
        this.deciding = undefined;
      });
      this.settled = await this.deciding;
    }
    return this.settled === "trusted" ? this.options.project.servers : [];
  }

  private async decide(
    ask: PermissionAsker,
    signal: AbortSignal,
  ): Promise<"trusted" | "untrusted" | undefined> {
    const { project, store, onWarning } = this.options;
    const remembered = store.lookup(project.repo, project.sha256);
    if (remembered.warning !== undefined) onWarning(remembered.warning);
    if (remembered.decision === "trusted") return "trusted";
    if (remembered.decision === "denied") return "untrusted";
    // Nothing to run, nothing to ask (a file with only refused entries).
    if (project.servers.length === 0) return "untrusted";
    const answer = await ask(trustQuestion(project), signal);
    const verdict = judge(answer);
    if (answer.kind === "decision")
      onWarning(
        `the MCP servers of ${project.file} are not started: only a person's "trust" choice trusts a project file (this answer was "${answer.decision}"${answer.source !== undefined ? ` from ${answer.source}` : ""}); trust it once in shard agent, shard attach or the web`,
      );
    if (verdict.remember !== undefined) {
      const warning = store.record(project.repo, project.sha256, verdict.remember);
      if (warning !== undefined) onWarning(warning);
    }
    return verdict.verdict === "ask_again" ? undefined : verdict.verdict;
  }
}

/**
 * Only a person's explicit choice counts: a bare decision is what blanket responders send
 * (`shard run --yes`, the daemon's headless policy, an SDK handler that allows everything), so
 * it never trusts, and never records a deny either.
 */
function judge(answer: PermissionAnswer): { verdict: Verdict; remember?: "trusted" | "denied" } {
  if (answer.kind === "cancelled") return { verdict: "ask_again" };
  if (answer.kind === "decision") return { verdict: "untrusted" };
  if (answer.source === "headless") return { verdict: "untrusted" };
  if (answer.choice_id === CHOICE_TRUST) return { verdict: "trusted", remember: "trusted" };
  if (answer.choice_id === CHOICE_DENY_TRUST) return { verdict: "untrusted", remember: "denied" };
  return { verdict: "untrusted" };
}

export function trustQuestion(project: ProjectMcpConfig): PermissionAsk {
  const described = project.servers.map((server) =>
    describe(server, project.variables.get(server.name) ?? []),
  );
  return {
    tool_name: "mcp_trust",
    input: { file: project.file, servers: described.map((d) => d.input) },
    prompt: `Trust the MCP servers of ${project.file}? It would run: ${described.map((d) => d.summary).join("; ")}`,
    // No "allow" decision: only the `trust` choice trusts (judge()).
    options: ["deny"],
    details: [{ label: "File", value: project.file, format: "path" }, ...described.flatMap((d) => d.details)],
    choices: [
      {
        id: CHOICE_TRUST,
        label: "Trust this file: start its servers",
        description: "Remembered for this repository until the file changes",
        intent: "persist",
      },
      { id: CHOICE_NOT_NOW, label: "Not now: do not start them this time", intent: "deny" },
      {
        id: CHOICE_DENY_TRUST,
        label: "Deny: never start them",
        description: "Remembered until the file changes",
        intent: "deny",
      },
    ],
  };
}

interface Described {
  input: Record<string, unknown>;
  summary: string;
  details: PermissionDetail[];
}

function describe(server: McpServerConfig, variables: string[]): Described {
  const reads: PermissionDetail[] =
    variables.length > 0
      ? [
          {
            label: `${server.name}: reads your environment variables`,
            value: variables.join(", "),
            format: "text",
          },
        ]
      : [];
  if (isStdioServer(server)) {
    const command = [server.command, ...(server.args ?? [])].map(shellWord).join(" ");
    const envNames = Object.keys(server.env).sort();
    return {
      input: {
        name: server.name,
        command: server.command,
        args: server.args ?? [],
        ...(envNames.length > 0 ? { env_names: envNames } : {}),
      },
      summary: `${server.name}: ${command}`,
      details: [
        { label: `MCP server ${server.name} runs`, value: command, format: "command" },
        ...(envNames.length > 0
          ? [{ label: `${server.name}: sets env`, value: envNames.join(", "), format: "text" as const }]
          : []),
        ...reads,
      ],
    };
  }
  const headerNames = Object.keys(server.headers).sort();
  return {
    input: {
      name: server.name,
      url: server.url,
      ...(headerNames.length > 0 ? { header_names: headerNames } : {}),
    },
    summary: `${server.name}: ${server.url}`,
    details: [
      { label: `MCP server ${server.name} reaches`, value: server.url, format: "text" },
      ...(headerNames.length > 0
        ? [{ label: `${server.name}: sends headers`, value: headerNames.join(", "), format: "text" as const }]
        : []),
      ...reads,
    ],
  };
}

/** A word as a shell would need it written, so the person reads the exact argv. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
