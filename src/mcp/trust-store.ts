/**
 * The person's answers about project `.mcp.json` files: `$SHARD_HOME/mcp-trust.json`,
 * `{"<repository real path>": {"<sha256 of the file>": {"decision": "trusted"|"denied", "at"}}}`.
 * Its content decides what runs without asking, so it is read only when it is owner-only
 * (like the grants file) and written atomically with mode 0600. A file that cannot be trusted
 * or read is a warning, and then nothing in it counts: every project file is untrusted, and an
 * answer is not written over it (that would lose the other entries).
 */
import { join } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { readOwnerOnlyFile } from "../permissions/owner-only-file.ts";
import { atomicWriteFileSync } from "../support/atomic-write.ts";
import { describeError } from "../support/describe-error.ts";

const MAX_BYTES = 4 * 1024 * 1024;

const TrustEntrySchema = Type.Object({
  decision: Type.Union([Type.Literal("trusted"), Type.Literal("denied")]),
  at: Type.String(),
});
const TrustFileSchema = Type.Record(Type.String(), Type.Record(Type.String(), TrustEntrySchema));

export type TrustDecision = Static<typeof TrustEntrySchema>["decision"];
type TrustFile = Static<typeof TrustFileSchema>;

type Loaded = { ok: true; file: TrustFile } | { ok: false; warning: string };

export function mcpTrustPath(home: string): string {
  return join(home, "mcp-trust.json");
}

export class McpTrustStore {
  constructor(
    private readonly path: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The remembered decision for this repository and exact file content, if any. */
  lookup(repo: string, sha256: string): { decision?: TrustDecision; warning?: string } {
    const loaded = this.load();
    if (!loaded.ok) return { warning: loaded.warning };
    const decision = loaded.file[repo]?.[sha256]?.decision;
    return decision === undefined ? {} : { decision };
  }

  /** Remembers a person's answer; a warning when it could not be written. */
  record(repo: string, sha256: string, decision: TrustDecision): string | undefined {
    const loaded = this.load();
    if (!loaded.ok) return `${loaded.warning}; this answer is not remembered`;
    const file = loaded.file;
    file[repo] = { ...file[repo], [sha256]: { decision, at: this.now().toISOString() } };
    try {
      atomicWriteFileSync(this.path, `${JSON.stringify(file, null, 2)}\n`, 0o600);
      return undefined;
    } catch (err) {
      return `${this.path} could not be written (${describeError(err)}); this answer is not remembered`;
    }
  }

  private load(): Loaded {
    const read = readOwnerOnlyFile(this.path, MAX_BYTES);
    if (read.kind === "missing") return { ok: true, file: {} };
    if (read.kind === "refused")
      return {
        ok: false,
        warning: `${this.path} is not used (${read.reason}), so no project MCP server is trusted. ${read.fix}`,
      };
    let parsed: unknown;
    try {
      parsed = JSON.parse(read.text);
    } catch {
      return { ok: false, warning: `${this.path} is not valid JSON, so no project MCP server is trusted` };
    }
    if (!Value.Check(TrustFileSchema, parsed))
      return {
        ok: false,
        warning: `${this.path} does not have the expected shape, so no project MCP server is trusted`,
      };
    return { ok: true, file: parsed };
  }
}
