/** Reads and writes agent manifests under `$SHARD_HOME/agents/` (one directory per agent). */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFileSync } from "../../support/atomic-write.ts";
import { AGENT_ID_PATTERN, type AgentManifest, parseManifest } from "./manifest.ts";

export interface ManifestProblem {
  agent_id: string;
  reason: string;
}

export class ManifestStore {
  private readonly dir: string;

  constructor(home: string) {
    this.dir = join(home, "agents");
  }

  /** Atomic: a reader (or a crash) never sees half a manifest. */
  save(manifest: AgentManifest): void {
    atomicWriteFileSync(
      join(this.dir, manifest.agent_id, "manifest.json"),
      `${JSON.stringify(manifest, null, 2)}\n`,
    );
  }

  /** Every readable manifest; unreadable ones are reported, not fatal (the other agents still load). */
  loadAll(): { manifests: AgentManifest[]; problems: ManifestProblem[] } {
    const manifests: AgentManifest[] = [];
    const problems: ManifestProblem[] = [];
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return { manifests, problems };
    }
    for (const name of names.sort()) {
      if (!AGENT_ID_PATTERN.test(name)) continue;
      let text: string;
      try {
        text = readFileSync(join(this.dir, name, "manifest.json"), "utf8");
      } catch (err) {
        problems.push({ agent_id: name, reason: (err as Error).message });
        continue;
      }
      const parsed = parseManifest(text);
      if (!parsed.ok) problems.push({ agent_id: name, reason: parsed.reason });
      else if (parsed.manifest.agent_id !== name)
        problems.push({
          agent_id: name,
          reason: `manifest names another agent (${parsed.manifest.agent_id})`,
        });
      else manifests.push(parsed.manifest);
    }
    return { manifests, problems };
  }
}
