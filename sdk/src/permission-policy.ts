/**
 * A declarative permission policy (`permissions: { allow, deny }`) compiled once and consulted by
 * the request responder before any handler. Rules: a tool name (`read`, `bash`) covers every call
 * of that tool; `bash:PATTERN` covers bash commands whose words match PATTERN (see `matchWords`).
 * Deny wins. An allow rule only ever matches a single simple command that the gate's own
 * bash-signature analysis accepts, so `git status; rm -rf /`, `git status $(rm -rf /)` or
 * `git status > ~/.bashrc` never ride on `bash:git status`. A deny rule matches if any simple
 * command of the line matches; a line the analysis cannot vouch for (expansions, wrappers,
 * interpreters, file redirections) is denied whenever a `bash:` deny rule exists, since it cannot
 * be shown not to run the denied command.
 */
import { lexShell, type ShellWord } from "../../src/permissions/bash-lexer.ts";
import { analyzeBashCommand } from "../../src/permissions/bash-signature.ts";
import { isRecord } from "../../src/support/is-record.ts";
import type { PermissionRequest } from "../../src/types/permissions.ts";
import { ShardError } from "./errors.ts";

export interface PermissionPolicy {
  /** Rules that allow a call unless a deny rule matches it too. */
  allow?: readonly string[];
  /** Rules that refuse a call whatever else says. */
  deny?: readonly string[];
}

export type PolicyDecision = { decision: "allow" } | { decision: "deny"; reason: string };

interface Rule {
  /** The rule as written, quoted in refusals. */
  source: string;
  tool: string;
  /** `bash:` rules only: the pattern's words. */
  words: string[] | undefined;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

/** Leading `NAME=value` words of a simple command (what runs is the word after them). */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Only well-known system locations are stripped, so `/bin/rm` is still `rm` for a deny rule. */
const SYSTEM_BIN_DIR = /^\/(?:usr\/(?:local\/)?)?s?bin\//;

export class CompiledPolicy {
  private constructor(
    private readonly allows: Rule[],
    private readonly denies: Rule[],
  ) {}

  /** Checks every rule up front: a typo fails at `spawnAgent` / `createAgent`, not at the first request. */
  static compile(policy: PermissionPolicy): CompiledPolicy {
    return new CompiledPolicy((policy.allow ?? []).map(parseRule), (policy.deny ?? []).map(parseRule));
  }

  /** The policy's answer, or undefined when no rule covers the request. */
  decide(request: PermissionRequest): PolicyDecision | undefined {
    const command = bashCommand(request);
    const line = command === undefined ? undefined : new CommandLine(command);
    for (const rule of this.denies) {
      if (rule.tool !== request.tool_name) continue;
      const match = rule.words === undefined || line === undefined || line.mayMatch(rule.words);
      if (match === "unknown") {
        return {
          decision: "deny",
          reason: `the permission policy has the deny rule "${rule.source}" and this command cannot be analysed to show it does not match (${line?.unsafeReason})`,
        };
      }
      if (match) return { decision: "deny", reason: `denied by the permission policy rule "${rule.source}"` };
    }
    for (const rule of this.allows) {
      if (rule.tool !== request.tool_name) continue;
      if (rule.words === undefined || line?.surelyMatches(rule.words)) return { decision: "allow" };
    }
    return undefined;
  }

  /** The refusal when no rule covers a request and no handler is registered. */
  uncovered(request: PermissionRequest): PolicyDecision {
    const allowed = this.allows.map((r) => r.source).join(", ") || "nothing";
    return {
      decision: "deny",
      reason: `the permission policy does not allow this ${request.tool_name} call (it allows: ${allowed}) and no onPermission handler is registered`,
    };
  }
}

function parseRule(source: string): Rule {
  const colon = source.indexOf(":");
  const tool = colon < 0 ? source : source.slice(0, colon);
  if (!TOOL_NAME.test(tool)) {
    throw new ShardError("INVALID_REQUEST", `permissions: "${source}" does not start with a tool name`);
  }
  if (colon < 0) return { source, tool, words: undefined };
  if (tool !== "bash") {
    throw new ShardError(
      "INVALID_REQUEST",
      `permissions: "${source}": only bash rules take a pattern; write "${tool}" to cover every ${tool} call`,
    );
  }
  const words = source
    .slice(colon + 1)
    .split(/\s+/)
    .filter((w) => w !== "");
  if (words.length === 0)
    throw new ShardError("INVALID_REQUEST", `permissions: "${source}" has an empty pattern`);
  return { source, tool, words };
}

function bashCommand(request: PermissionRequest): string | undefined {
  if (request.tool_name !== "bash" || !isRecord(request.input)) return undefined;
  const command = request.input.command;
  return typeof command === "string" ? command : undefined;
}

/** A bash command line as the policy sees it: its simple commands, and whether the gate's analysis accepts it. */
class CommandLine {
  /** Each simple command's words after its leading assignments; undefined when it cannot be lexed. */
  private readonly commands: string[][] | undefined;
  /** Why the gate's bash-signature analysis rejects the line, or undefined when it accepts it. */
  readonly unsafeReason: string | undefined;

  constructor(command: string) {
    const lexed = lexShell(command);
    this.commands = lexed.ok ? lexed.commands.map(withoutAssignments).filter((c) => c.length > 0) : undefined;
    const analysis = analyzeBashCommand(command);
    this.unsafeReason = analysis.ok ? undefined : analysis.reason;
  }

  private get analysable(): boolean {
    return this.commands !== undefined && this.unsafeReason === undefined;
  }

  /** Allow: exactly one simple command, accepted by the bash-signature analysis, matching the pattern. */
  surelyMatches(pattern: string[]): boolean {
    const only = this.commands?.length === 1 ? this.commands[0] : undefined;
    return this.analysable && only !== undefined && matchWords(pattern, only);
  }

  /** Deny: any simple command matches (its executable also without a system bin dir), or the line cannot be vouched for. */
  mayMatch(pattern: string[]): boolean | "unknown" {
    if (!this.analysable || this.commands === undefined) return "unknown";
    return this.commands.some((words) => {
      if (matchWords(pattern, words)) return true;
      const [head = "", ...rest] = words;
      const bare = head.replace(SYSTEM_BIN_DIR, "");
      return bare !== head && matchWords(pattern, [bare, ...rest]);
    });
  }
}

function withoutAssignments(words: ShellWord[]): string[] {
  const command = words.findIndex((w) => !ASSIGNMENT.test(w.raw));
  return command < 0 ? [] : words.slice(command).map((w) => w.text);
}

/**
 * Pattern words against a command's words (after quote removal). A final `*` word matches zero or
 * more remaining words; every other pattern word matches exactly one word, where `*` is any run
 * of characters and `?` one character (everything else is literal).
 */
export function matchWords(pattern: readonly string[], words: readonly string[]): boolean {
  const rest = pattern.at(-1) === "*";
  const fixed = rest ? pattern.slice(0, -1) : pattern;
  if (rest ? words.length < fixed.length : words.length !== fixed.length) return false;
  return fixed.every((p, i) => globWord(p).test(words[i] ?? ""));
}

function globWord(pattern: string): RegExp {
  let source = "";
  for (const ch of pattern) {
    if (ch === "*") source += "[\\s\\S]*";
    else if (ch === "?") source += "[\\s\\S]";
    else source += ch.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}
