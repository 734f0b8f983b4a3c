/** Reads and writes agent manifests under `$SHARD_HOME/agents/` (one directory per agent). */
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
} from "node:fs";
import { join } from "node:path";
import { atomicWriteFileSync, type WriteIo } from "../../support/atomic-write.ts";
import { describeError } from "../../support/describe-error.ts";
import { AGENT_ID_PATTERN, type AgentManifest, parseManifest } from "./manifest.ts";
import { removeMirroredSession } from "./mirror-removal.ts";
import { removeSessionDirectory } from "./session-removal.ts";

export interface ManifestProblem {
  agent_id: string;
  reason: string;
}

/**
 * An agent being deleted: its folder renamed to `.deleted-<id>` first, in one atomic step (the
 * intent, and the point of no return), then removed. A crash in between leaves a folder no
 * load lists as an agent and the next load finishes removing.
 */
const DELETED_PREFIX = ".deleted-";
/** The same, for a delete that takes the agent's session directory too (`session: true`). */
const DELETED_WITH_SESSION_PREFIX = ".deleted-with-session-";

export class ManifestStore {
  private readonly dir: string;

  constructor(
    private readonly home: string,
    private readonly io?: WriteIo,
  ) {
    this.dir = join(home, "agents");
  }

  /**
   * Atomic: a reader (or a crash) never sees half a manifest, and a write that fails (a full
   * disk) throws and leaves no `agents/<id>/` folder behind.
   */
  save(manifest: AgentManifest): void {
    atomicWriteFileSync(
      join(this.dir, manifest.agent_id, "manifest.json"),
      `${JSON.stringify(manifest, null, 2)}\n`,
      0o600,
      this.io,
    );
  }

  /**
   * Every readable manifest; unreadable ones are reported, not fatal (the other agents still
   * load). A folder with no manifest and nothing but temp files in it is what an older daemon's
   * failed first write left: it is removed (and named in `removed`), not reported at every start.
   */
  loadAll(): {
    manifests: AgentManifest[];
    problems: ManifestProblem[];
    removed: string[];
    /** Agents whose deletion a crash interrupted: their folder is gone now (the caller removes the rest). */
    deleted: string[];
  } {
    const manifests: AgentManifest[] = [];
    const problems: ManifestProblem[] = [];
    const removed: string[] = [];
    const deleted: string[] = [];
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return { manifests, problems, removed, deleted };
    }
    for (const name of names.sort()) {
      const doomed = name.startsWith(DELETED_WITH_SESSION_PREFIX)
        ? name.slice(DELETED_WITH_SESSION_PREFIX.length)
        : name.startsWith(DELETED_PREFIX)
          ? name.slice(DELETED_PREFIX.length)
          : undefined;
      if (doomed !== undefined && AGENT_ID_PATTERN.test(doomed)) {
        this.purge(doomed);
        deleted.push(doomed);
        continue;
      }
      if (!AGENT_ID_PATTERN.test(name)) continue;
      let text: string;
      try {
        text = readFileSync(join(this.dir, name, "manifest.json"), "utf8");
      } catch (err) {
        if (this.removeIfHalfMade(name)) removed.push(name);
        else problems.push({ agent_id: name, reason: describeError(err) });
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
    return { manifests, problems, removed, deleted };
  }

  /**
   * The committing step of a delete: `agents/<id>/` becomes `agents/.deleted-<id>/` (a rename,
   * made durable with an fsync of `agents/`). From here on no load lists the agent. Throws when
   * the rename fails, and then nothing changed.
   */
  discard(agentId: string, withSession = false): void {
    const prefix = withSession ? DELETED_WITH_SESSION_PREFIX : DELETED_PREFIX;
    renameSync(join(this.dir, agentId), join(this.dir, `${prefix}${agentId}`));
    const fd = openSync(this.dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Removes what `discard` set aside (idempotent: a crash may have removed part of it), the
   * session directory first when the delete took it too: its manifest, still in the folder
   * set aside, names the session.
   */
  purge(agentId: string): void {
    const withSession = join(this.dir, `${DELETED_WITH_SESSION_PREFIX}${agentId}`);
    if (existsSync(withSession)) {
      const manifest = this.manifestOf(withSession);
      const sessionId = manifest?.session_id;
      if (sessionId !== undefined) {
        removeSessionDirectory(this.home, sessionId);
        // A placed agent's session is on its placement; the daemon holds a copy of it.
        if (manifest?.placement !== undefined)
          removeMirroredSession(this.home, manifest.placement, sessionId);
      }
      rmSync(withSession, { recursive: true, force: true });
    }
    rmSync(join(this.dir, `${DELETED_PREFIX}${agentId}`), { recursive: true, force: true });
  }

  private manifestOf(folder: string): AgentManifest | undefined {
    try {
      const parsed = parseManifest(readFileSync(join(folder, "manifest.json"), "utf8"));
      return parsed.ok ? parsed.manifest : undefined;
    } catch {
      return undefined;
    }
  }

  private removeIfHalfMade(name: string): boolean {
    const folder = join(this.dir, name);
    try {
      const entries = readdirSync(folder);
      if (!entries.every((e) => e.startsWith("manifest.json.") && e.endsWith(".tmp"))) return false;
      for (const e of entries) rmSync(join(folder, e), { force: true });
      rmdirSync(folder);
      return true;
    } catch {
      return false;
    }
  }
}
