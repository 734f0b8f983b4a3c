/**
 * The permission gate (docs/architecture.md §6.4, docs/protocol.md §5.3). Decision order: mode
 * policy → persisted grants → read-only tools whose every path resolves (and is spelled) inside cwd
 * → ask the user.
 *
 * Headless policy lives in the daemon's broker (docs/architecture.md §5.4), not here: grants
 * already run before asking, so `allow_if_rule_matches` is simply "deny when asked", `deny`
 * likewise, and `queue` keeps the ask pending until a responder attaches or the headless
 * timeout denies it.
 */
import type {
  GateDecision,
  ModePolicy,
  PermissionAnswer,
  PermissionAsker,
  PermissionCheck,
  PermissionGate,
} from "../contracts/permission-gate.ts";
import type { AnyTool, PreviewContext } from "../contracts/tool.ts";
import type { CommandSandbox, PathBoundary } from "../sandbox/agent-sandbox.ts";
import { resolveRealPath } from "../support/real-path.ts";
import { toolAllowed } from "../tools/tool-pattern.ts";
import type { RenderDescriptor } from "../types/render.ts";
import type { BashAnalysis } from "./bash-signature.ts";
import { describeRequest, exactRequestHash, type GrantRule, ruleAllows } from "./grant-rules.ts";
import { type GrantStore, openGrantStore } from "./grant-store.ts";
import { canonicalCwd, isInside, spelledInside } from "./paths.ts";
import {
  buildPermissionAsk,
  CHOICE_ALLOW_ONCE,
  CHOICE_ALWAYS_EXACT,
  CHOICE_ALWAYS_MCP_SERVER,
  CHOICE_ALWAYS_MCP_TOOL,
  CHOICE_ALWAYS_SIGNATURE,
  CHOICE_DENY,
  type RequestPath,
} from "./permission-ask.ts";

export interface PermissionGateOptions {
  /** `$SHARD_HOME`; grants live under `<home>/grants/`. */
  home: string;
  /** The project whose grants this gate reads and writes. */
  cwd: string;
  /** A problem with the grants file the user must hear about (untrusted, unreadable, not saved). */
  onWarning?: (message: string) => void;
  /** The agent's OS sandbox: it bounds the file tools and lets confined commands skip the question. */
  sandbox?: CommandSandbox & PathBoundary;
}

export function createPermissionGate(options: PermissionGateOptions): PermissionGate {
  const store = openGrantStore(options.home, canonicalCwd(options.cwd));
  // The file is read on every decision: say each problem once, again only after it changed.
  let lastProblem: string | undefined;
  const warnings: GrantWarnings = {
    loaded(problem) {
      if (problem !== undefined && problem !== lastProblem) options.onWarning?.(problem);
      lastProblem = problem;
    },
    notSaved: (message) => options.onWarning?.(message),
  };
  const sandbox = options.sandbox;
  let warmed = false;
  return {
    decide: (check, ask) => decide(check, ask, store, warnings, sandbox),
    prepare() {
      if (warmed) return;
      warmed = true;
      // The first decision's file-system work, cold, was ~1 ms of the first tool call (resolving
      // its path; the sandbox's hidden paths, which every question still looks up afresh). Done
      // once here, on a timer, it runs while the turn's first provider call is in flight.
      setTimeout(() => warmUp(options.cwd, sandbox), 0).unref();
    },
  };
}

/** Runs a read question's path work once, for nothing but having run it (its result is dropped). */
function warmUp(cwd: string, sandbox: PathBoundary | undefined): void {
  try {
    sandbox?.readRefusal(resolveRealPath(canonicalCwd(cwd), "."));
  } catch {
    // Whatever fails here fails again, and is reported, in the decision that needs it.
  }
}

interface GrantWarnings {
  loaded(problem: string | undefined): void;
  notSaved(message: string): void;
}

async function decide(
  check: PermissionCheck,
  ask: PermissionAsker,
  store: GrantStore,
  warnings: GrantWarnings,
  sandbox: (CommandSandbox & PathBoundary) | undefined,
): Promise<GateDecision> {
  const { tool, args, mode } = check;
  const modeDenial = applyModePolicy(tool, mode);
  if (modeDenial) return modeDenial;

  const cwd = canonicalCwd(check.cwd);
  const paths = requestPaths(tool, args, cwd);
  const resolved = paths?.map((p) => p.resolved) ?? [];
  // The sandbox's boundary holds whatever a grant or the user would say.
  const refusal = sandbox && boundaryRefusal(sandbox, tool, resolved);
  if (refusal) return { allowed: false, source: "sandbox", reason: refusal };
  const confinement = commandConfinement(tool, args, sandbox);
  if (confinement === "auto-allowed") return { allowed: true, source: "sandbox" };
  const request = describeRequest(tool.name, args, resolved);
  // Handed to the tool so it opens exactly what was judged here (and shown in the prompt).
  const judged = paths?.length ? { judgedPaths: new Map(paths.map((p) => [p.requested, p.resolved])) } : {};
  const grants = store.load();
  warnings.loaded(grants.problem);
  // Leaving the sandbox is asked every time: no remembered rule covers it.
  const leavesSandbox = confinement === "leaves";
  if (!leavesSandbox && grants.rules.some((rule) => ruleAllows(rule, request)))
    return { allowed: true, source: "grant", ...judged };

  if (tool.isReadOnly && paths?.every((p) => p.inside && p.spelledInside))
    return { allowed: true, source: "read_only", ...judged };

  if (check.signal.aborted) return cancelled(tool.name, "the turn was aborted");
  // `request.bash` exists only for a string command; the check is here so the type knows it.
  const command = typeof args.command === "string" ? args.command : undefined;
  const bash = request.bash && command !== undefined ? { command, analysis: request.bash } : undefined;
  const preview = await previewOf(tool, args, { cwd, signal: check.signal, ...judged });
  const permissionAsk = buildPermissionAsk({
    toolName: tool.name,
    args,
    cwd,
    paths: paths ?? [],
    bash,
    ...(tool.mcp !== undefined ? { mcp: tool.mcp } : {}),
    ...(preview !== undefined ? { preview } : {}),
    // Only an agent with a sandbox on says how a command would run (an `off` agent asks as ever).
    ...(confinement !== undefined && sandbox ? { sandbox: leavesSandbox ? "off" : sandbox.mode() } : {}),
  });
  const offered = new Set(permissionAsk.choices?.map((c) => c.id));
  let answer: PermissionAnswer;
  try {
    answer = await ask(permissionAsk, check.signal);
  } catch {
    return cancelled(tool.name, "the permission request failed");
  }
  const decision = interpretAnswer(answer, offered, {
    toolName: tool.name,
    store,
    warnings,
    exactRule: () => exactRule(tool.name, args, resolved),
    signatureAnalysis: request.bash,
    leavesSandbox,
    ...(tool.mcp !== undefined ? { mcpServer: tool.mcp.server } : {}),
  });
  return decision.allowed ? { ...decision, ...judged } : decision;
}

/** Why the sandbox refuses a file tool's paths: writes outside the writable roots, any hidden path. */
function boundaryRefusal(sandbox: PathBoundary, tool: AnyTool, resolved: string[]): string | undefined {
  for (const path of resolved) {
    const refusal = tool.isReadOnly ? sandbox.readRefusal(path) : sandbox.writeRefusal(path);
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}

/**
 * How a `bash` call meets the sandbox: confined and allowed without a question
 * (`auto-allow-sandboxed`), confined but asked, or leaving the sandbox (always asked).
 */
function commandConfinement(
  tool: AnyTool,
  args: Record<string, unknown>,
  sandbox: CommandSandbox | undefined,
): "auto-allowed" | "asked" | "leaves" | undefined {
  if (tool.name !== "bash" || sandbox === undefined || sandbox.mode() === "off") return undefined;
  if (args.unsandboxed === true) return "leaves";
  return sandbox.policy() === "auto-allow-sandboxed" ? "auto-allowed" : "asked";
}

function applyModePolicy(tool: AnyTool, mode: ModePolicy): GateDecision | undefined {
  if (mode.allowedTools && !toolAllowed(mode.allowedTools, tool.name)) {
    const allowed =
      mode.allowedTools.length > 0 ? mode.allowedTools.map((t) => `\`${t}\``).join(", ") : "none";
    return {
      allowed: false,
      source: "mode",
      reason: `${mode.name} mode: \`${tool.name}\` is not allowed. Tools allowed in ${mode.name} mode: ${allowed}.`,
    };
  }
  if (mode.denyMutating && !tool.isReadOnly) {
    const title = mode.name.charAt(0).toUpperCase() + mode.name.slice(1);
    return {
      allowed: false,
      source: "mode",
      reason:
        `${mode.name} mode: \`${tool.name}\` is not allowed. ${title} mode is read-only; describe the change ` +
        "instead, or ask the user to switch to build mode.",
    };
  }
  return undefined;
}

/** Every path the call touches, resolved; `undefined` when the tool cannot say (never auto-allowed). */
function requestPaths(tool: AnyTool, args: Record<string, unknown>, cwd: string): RequestPath[] | undefined {
  let raw: unknown;
  try {
    raw = tool.paths ? tool.paths(args) : [];
  } catch {
    return undefined;
  }
  if (!Array.isArray(raw) || !raw.every((p) => typeof p === "string")) return undefined;
  return raw.map((requested: string) => {
    const resolved = resolveRealPath(cwd, requested);
    return {
      requested,
      resolved,
      inside: isInside(cwd, resolved),
      spelledInside: spelledInside(cwd, requested),
    };
  });
}

function exactRule(toolName: string, args: Record<string, unknown>, resolved: string[]): GrantRule {
  const command = toolName === "bash" && typeof args.command === "string" ? args.command : undefined;
  const display = command ?? resolved.join(", ");
  return {
    kind: "exact",
    tool: toolName,
    input_sha256: exactRequestHash(toolName, args, resolved),
    ...(display ? { display: display.slice(0, 200) } : {}),
  };
}

interface AnswerContext {
  toolName: string;
  store: GrantStore;
  warnings: GrantWarnings;
  exactRule: () => GrantRule;
  signatureAnalysis: BashAnalysis | undefined;
  /** An answer to leave the sandbox holds for this call only, whatever it says. */
  leavesSandbox: boolean;
  /** A tool of this MCP server: its grants per tool and per server are offered. */
  mcpServer?: string;
}

function interpretAnswer(answer: PermissionAnswer, offered: Set<string>, ctx: AnswerContext): GateDecision {
  if (answer.kind === "cancelled") return cancelled(ctx.toolName, answer.reason);
  if (answer.kind === "decision") {
    if (answer.decision === "allow") return { allowed: true, source: "user" };
    if (answer.decision === "allow_always")
      return ctx.leavesSandbox ? { allowed: true, source: "user" } : persistThenAllow(ctx, ctx.exactRule());
    return userDenied(ctx.toolName, answer.reason);
  }
  if (!offered.has(answer.choice_id)) return unknownChoice();
  switch (answer.choice_id) {
    case CHOICE_ALLOW_ONCE:
      return { allowed: true, source: "user" };
    case CHOICE_ALWAYS_EXACT:
      return persistThenAllow(ctx, ctx.exactRule());
    case CHOICE_ALWAYS_SIGNATURE: {
      const analysis = ctx.signatureAnalysis;
      if (!analysis?.ok) return unknownChoice();
      return persistThenAllow(ctx, {
        kind: "bash_signature",
        version: 2,
        signatures: analysis.signatures,
      });
    }
    case CHOICE_ALWAYS_MCP_TOOL:
      if (ctx.mcpServer === undefined) return unknownChoice();
      return persistThenAllow(ctx, { kind: "mcp_tool", tool: ctx.toolName });
    case CHOICE_ALWAYS_MCP_SERVER:
      if (ctx.mcpServer === undefined) return unknownChoice();
      return persistThenAllow(ctx, { kind: "mcp_server", server: ctx.mcpServer });
    case CHOICE_DENY:
      return userDenied(ctx.toolName, answer.reason);
    default:
      return unknownChoice();
  }
}

/** The user allowed this call; a failed save only means the next identical call asks again. */
function persistThenAllow(ctx: AnswerContext, rule: GrantRule): GateDecision {
  const saved = ctx.store.add(rule);
  if (!saved.ok) ctx.warnings.notSaved(saved.message);
  return { allowed: true, source: "user" };
}

function userDenied(toolName: string, why?: string): GateDecision {
  const because = why?.trim() ? ` Their reason: ${why.trim()}` : "";
  return {
    allowed: false,
    source: "user",
    reason: `The user denied permission for \`${toolName}\`.${because}`,
  };
}

function cancelled(toolName: string, why: string): GateDecision {
  return {
    allowed: false,
    source: "cancelled",
    reason: `The permission request for \`${toolName}\` was not answered (${why}), so it was denied.`,
  };
}

function unknownChoice(): GateDecision {
  return { allowed: false, source: "policy", reason: "Unrecognized permission choice; treated as deny." };
}

/** The tool's preview of the change; a failing preview only means the question shows none. */
async function previewOf(
  tool: AnyTool,
  args: Record<string, unknown>,
  ctx: PreviewContext,
): Promise<RenderDescriptor | undefined> {
  if (tool.preview === undefined) return undefined;
  try {
    return await tool.preview(args, ctx);
  } catch {
    return undefined;
  }
}
