/**
 * The sandbox an agent asks for: its flags (`--sandbox`, `--sandbox-policy`, `--allow-host`),
 * then `SHARD_SANDBOX` / `SHARD_SANDBOX_POLICY`, then the `sandbox` section of
 * `$SHARD_HOME/config.json`, then the defaults (docs/sandbox.md §configure). A bad config value is
 * a warning and its default, never a silently looser sandbox.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Static, type TLiteral, type TUnion, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { describeError } from "../support/describe-error.ts";
import { errorCode } from "../support/error-code.ts";
import {
  type SandboxMode,
  SandboxModeSchema,
  type SandboxPolicy,
  SandboxPolicySchema,
} from "../types/sandbox.ts";

const HostSchema = Type.String({ minLength: 1, maxLength: 253, pattern: "^(\\*\\.)?[A-Za-z0-9.-]+$" });

const SandboxSectionSchema = Type.Object({
  mode: Type.Optional(SandboxModeSchema),
  policy: Type.Optional(SandboxPolicySchema),
  deny: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  network: Type.Optional(Type.Object({ allow: Type.Optional(Type.Array(HostSchema)) })),
});
type SandboxSection = Static<typeof SandboxSectionSchema>;

export interface SandboxRequest {
  /** From a flag or `agent.create`. */
  mode?: SandboxMode;
  policy?: SandboxPolicy;
  /** Hosts for this agent, added to the config's. */
  networkAllow?: readonly string[];
}

export interface SandboxSettings {
  mode: SandboxMode;
  /** False when nobody chose the mode: the default may quietly fall back where there is no sandbox. */
  modeChosen: boolean;
  policy: SandboxPolicy;
  deny: string[];
  networkAllow: string[];
  warnings: string[];
}

export const DEFAULT_SANDBOX_MODE: SandboxMode = "workspace-write";

export function isValidHost(host: string): boolean {
  return Value.Check(HostSchema, host);
}

export function resolveSandboxSettings(
  request: SandboxRequest,
  env: Record<string, string | undefined>,
  home: string,
): SandboxSettings {
  const warnings: string[] = [];
  const section = readSection(home, warnings);
  const fromEnv = <S extends TUnion<TLiteral<string>[]>>(name: string, schema: S): Static<S> | undefined => {
    const value = env[name];
    if (value === undefined || value === "") return undefined;
    if (Value.Check(schema, value)) return value;
    const choices = schema.anyOf.map((s) => s.const).join(", ");
    warnings.push(`${name}=${value} is not one of ${choices}; ignored`);
    return undefined;
  };
  const chosenMode = request.mode ?? fromEnv("SHARD_SANDBOX", SandboxModeSchema) ?? section.mode;
  const mode = chosenMode ?? DEFAULT_SANDBOX_MODE;
  const policy =
    request.policy ??
    fromEnv("SHARD_SANDBOX_POLICY", SandboxPolicySchema) ??
    section.policy ??
    "auto-allow-sandboxed";
  const networkAllow = [...new Set([...(section.network?.allow ?? []), ...(request.networkAllow ?? [])])];
  return {
    mode,
    modeChosen: chosenMode !== undefined,
    policy,
    deny: section.deny ?? [],
    networkAllow,
    warnings,
  };
}

function readSection(home: string, warnings: string[]): SandboxSection {
  const path = join(home, "config.json");
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    if (errorCode(error) !== "ENOENT")
      warnings.push(`${path}: ${describeError(error)}; sandbox settings use their defaults`);
    return {};
  }
  const section = typeof parsed === "object" && parsed !== null ? Reflect.get(parsed, "sandbox") : undefined;
  if (section === undefined) return {};
  if (Value.Check(SandboxSectionSchema, section)) return section;
  const first = Value.Errors(SandboxSectionSchema, section).First();
  warnings.push(
    `${path}: sandbox${first?.path.replaceAll("/", ".") ?? ""}: ${first?.message ?? "invalid"}; ` +
      "the whole sandbox section is ignored and the defaults apply",
  );
  return {};
}
