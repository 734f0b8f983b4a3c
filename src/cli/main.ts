#!/usr/bin/env bun
/**
 * `shard` entry point: argument dispatch only (docs/architecture.md §2, L5). Each command lives in
 * its own module and is imported lazily so `--help` and `agent` start fast.
 */
import pkg from "../../package.json" with { type: "json" };
import { isDaemonFlag } from "./daemon-options.ts";
import { reportUsageError } from "./flags.ts";
import { applyJitPolicy } from "./jit-policy.ts";

interface CommandEntry {
  summary: string;
  run: (argv: string[]) => Promise<number>;
}

const COMMANDS: Record<string, CommandEntry> = {
  acp: {
    summary: "serve the Agent Client Protocol on stdio for editors (Zed, JetBrains, Neovim)",
    run: async (argv) => (await import("./acp-command.ts")).acpCommand(argv),
  },
  agent: {
    summary: "run one headless agent speaking JSONL on stdin/stdout",
    run: async (argv) => (await import("./agent-command.ts")).agentCommand(argv),
  },
  attach: {
    summary: "watch one agent of the daemon in the terminal and answer its prompts",
    run: async (argv) => (await import("./attach-command.ts")).attachCommand(argv),
  },
  auth: {
    summary: "enroll, list and revoke the browsers of the web client (shard auth --help)",
    run: async (argv) => (await import("./auth-command.ts")).authCommand(argv),
  },
  daemon: {
    summary: "run the daemon: durable agents for many clients (unix socket + WebSocket)",
    run: async (argv) => (await import("./daemon-command.ts")).daemonCommand(argv),
  },
  ls: {
    summary: "list the daemon's agents with their status (--json for AgentInfo)",
    run: async (argv) => (await import("./ls-command.ts")).lsCommand(argv),
  },
  mcp: {
    summary: "list the MCP servers of $SHARD_HOME/mcp.json, or start one and list its tools",
    run: async (argv) => (await import("./mcp-command.ts")).mcpCommand(argv),
  },
  placement: {
    summary: "list the placements (ssh hosts, containers) or install shard on one",
    run: async (argv) => (await import("./placement-command.ts")).placementCommand(argv),
  },
  rm: {
    summary: "delete an agent of the daemon for good (--session: its session too)",
    run: async (argv) => (await import("./rm-command.ts")).rmCommand(argv),
  },
  session: {
    summary: "copy a session file out of or into $SHARD_HOME (used by the daemon's placements)",
    run: async (argv) => (await import("./session-command.ts")).sessionCommand(argv),
  },
  run: {
    summary: 'one-shot: run a prompt and print the answer (shard run "list the files here")',
    run: async (argv) => (await import("./run-command.ts")).runCommand(argv),
  },
  usage: {
    summary: "what the agents spent: calls, tokens and cost per agent, model, job or workspace",
    run: async (argv) => (await import("./usage-command.ts")).usageCommand(argv),
  },
};

export const HELP = `shard ${pkg.version} — run LLM coding agents

Usage:
  shard [daemon options]   start the daemon (same as shard daemon; see shard daemon --help)
  shard <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`)
  .join("\n")}

Options:
  -h, --help       show this help (or: shard <command> --help)
  -v, --version    print the version (also: shard version)

Environment:
  SHARD_HOME          configuration and state (default ~/.shard)
  ANTHROPIC_API_KEY   / ANTHROPIC_BASE_URL   Anthropic Messages provider
  OPENAI_API_KEY      / OPENAI_BASE_URL      OpenAI and OpenAI-compatible providers
  SHARD_MODEL         default model, as provider/model
`;

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || isDaemonFlag(first)) {
    return (await import("./daemon-command.ts")).daemonCommand(argv);
  }
  if (first === "help" && rest.length > 0) return main([...rest, "--help"]);
  if (first === "-h" || first === "--help" || first === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  if (first === "-v" || first === "--version" || first === "version") {
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (!command) {
    const what = first.startsWith("-") ? "option" : "command";
    return reportUsageError("", `unknown ${what} "${first}". Commands: ${Object.keys(COMMANDS).join(", ")}`);
  }
  return command.run(rest);
}

if (import.meta.main) {
  applyJitPolicy(process.env, (line) => process.stderr.write(line));
  // exitCode, never process.exit(): pending stdout writes must flush (docs/architecture.md §4).
  // No top-level await, so the entry also builds as a bytecode-compiled binary.
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
