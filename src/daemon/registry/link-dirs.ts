/**
 * The far-side directories of an ssh agent's subagent links (subagent-link.ts), made and swept
 * through the placement with the record of link-dir-record.ts: before each generation's link
 * the agent's recorded directories are removed and a new one is made, in one ssh call, its name
 * recorded first; at daemon start every recorded directory is removed. Work of one agent runs
 * one call at a time, in order, so the record is never written by two at once.
 */
import { sshArgv } from "../../placements/placement-argv.ts";
import type { NamedPlacement, SshPlacement } from "../../placements/placement-config.ts";

/** An ssh placement with its placements.json name (the record is kept under it). */
export type NamedSshPlacement = SshPlacement & { name: string };

import { shellWord } from "../../placements/shell-word.ts";
import { describeError } from "../../support/describe-error.ts";
import { newLinkDirName, readLinkDirs, recordedLinkDirs, writeLinkDirs } from "./link-dir-record.ts";

/** One call through the placement takes at most this long. */
const CALL_TIMEOUT_MS = 30_000;
/** Unix socket paths are ~104 bytes at most on the platforms ssh runs on. */
export const MAX_SOCKET_PATH = 100;
/** What the far side may answer: an absolute path without spaces, quotes or `:` (ssh's -R separator). */
const REMOTE_DIR = /^\/[A-Za-z0-9._/-]+$/;

export interface LinkDirsContext {
  home: string;
  env: Record<string, string | undefined>;
  log(line: string): void;
}

export class LinkDirs {
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly running = new Set<Bun.Subprocess>();
  private closed = false;

  constructor(private readonly context: LinkDirsContext) {}

  /**
   * Removes the agent's recorded directories on `placement` and makes a fresh one there; its
   * path, or undefined (logged) when it could not be made.
   */
  make(agentId: string, placement: NamedSshPlacement): Promise<string | undefined> {
    return this.serial(agentId, async () => {
      const stale = readLinkDirs(this.context.home, placement.name, agentId);
      const name = newLinkDirName();
      // The intent first: the directory about to exist is in the record before ssh runs.
      if (!this.record(agentId, placement.name, [...stale, name])) return undefined;
      const made = await this.call(placement, `${sweepScript(stale)}umask 077 && ${mkdirScript(name)}`);
      const dir = made.out.trim();
      if (made.code === 0 && REMOTE_DIR.test(dir) && Buffer.byteLength(dir) + 12 <= MAX_SOCKET_PATH) {
        this.record(agentId, placement.name, [name]);
        return dir;
      }
      this.context.log(
        `ssh placement ${placement.host}: no subagent link: making its directory there answered ${JSON.stringify(dir.slice(0, 200))} (exit ${made.code}): ${made.err.trim().slice(0, 500)}`,
      );
      return undefined;
    });
  }

  /**
   * The daemon start's sweep: every agent's recorded directories (a deleted agent's too), one
   * ssh call per placement (not one per agent: a daemon with many agents must not open as many
   * connections at once). Each agent's own work waits for it. What cannot be reached stays
   * recorded for next time.
   */
  sweepAll(find: (name: string) => NamedPlacement | undefined): Promise<void> {
    const byPlacement = new Map<string, string[]>();
    for (const { placement, agentId } of recordedLinkDirs(this.context.home))
      byPlacement.set(placement, [...(byPlacement.get(placement) ?? []), agentId]);
    const sweeps = [...byPlacement].map(([name, agents]) => {
      const placement = find(name);
      if (placement?.kind !== "ssh") {
        this.context.log(
          `link directories of ${agents.join(", ")} on placement ${name} kept: it is not an ssh placement now`,
        );
        return Promise.resolve();
      }
      let once: Promise<void> | undefined;
      const sweep = () => {
        once ??= this.sweepPlacement(placement, agents);
        return once;
      };
      return Promise.all(agents.map((agentId) => this.serial(agentId, sweep))).then(() => undefined);
    });
    return Promise.all(sweeps).then(() => undefined);
  }

  /** Runs while every one of `agents` waits on it (sweepAll), so their records are ours to write. */
  private async sweepPlacement(placement: NamedSshPlacement, agents: string[]): Promise<void> {
    const stale = new Map(
      agents.map((agentId) => [agentId, readLinkDirs(this.context.home, placement.name, agentId)]),
    );
    const all = [...stale.values()].flat();
    if (all.length === 0) return;
    const swept = await this.call(placement, `${sweepScript(all)}:`);
    if (swept.code !== 0) {
      this.context.log(
        `could not remove old link directories on placement ${placement.name} (exit ${swept.code}): ${swept.err.trim().slice(0, 300)}`,
      );
      return;
    }
    for (const [agentId, names] of stale) {
      const left = readLinkDirs(this.context.home, placement.name, agentId).filter((n) => !names.includes(n));
      this.record(agentId, placement.name, left);
    }
  }

  /** The daemon stops: calls in flight are killed, and none starts again. */
  async close(): Promise<void> {
    this.closed = true;
    for (const proc of this.running) proc.kill("SIGKILL");
    await Promise.all([...this.running].map((proc) => proc.exited));
  }

  private record(agentId: string, placement: string, names: string[]): boolean {
    try {
      const forgotten = writeLinkDirs(this.context.home, placement, agentId, names);
      if (forgotten.length > 0)
        this.context.log(
          `agent ${agentId}: forgot ${forgotten.length} old link directory name(s) on placement ${placement} (over the bound); the far side's tmp cleaner gets them`,
        );
      return true;
    } catch (err) {
      this.context.log(
        `agent ${agentId}: no subagent link: cannot record its link directory: ${describeError(err)}`,
      );
      return false;
    }
  }

  private serial<T>(agentId: string, work: () => Promise<T>): Promise<T> {
    const next = (this.chains.get(agentId) ?? Promise.resolve()).then(work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.chains.set(agentId, settled);
    void settled.then(() => {
      if (this.chains.get(agentId) === settled) this.chains.delete(agentId);
    });
    return next;
  }

  /** Runs `script` under a POSIX sh on the far side, whatever the login shell. */
  private async call(
    placement: SshPlacement,
    script: string,
  ): Promise<{ code: number; out: string; err: string }> {
    if (this.closed) return { code: -1, out: "", err: "the daemon is stopping" };
    const proc = Bun.spawn(sshArgv(placement, `exec sh -c ${shellWord(script)}`), {
      cwd: this.context.home,
      env: this.context.env,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    this.running.add(proc);
    const timer = setTimeout(() => proc.kill("SIGKILL"), CALL_TIMEOUT_MS);
    try {
      const [code, out, err] = await Promise.all([
        proc.exited,
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
      ]);
      return { code, out, err };
    } finally {
      clearTimeout(timer);
      this.running.delete(proc);
    }
  }
}

/** The directory of `name` on the far side, as a shell expression there. */
function dirWord(name: string): string {
  // \${TMPDIR…} is a parameter expansion of the remote shell.
  return `"\${TMPDIR:-/tmp}/shard-link.${name}"`;
}

/**
 * Removes each named directory that is the ssh user's own directory (not a link, not someone
 * else's entry at that name); what it cannot remove is not ours. Ends with `; ` (or nothing).
 */
function sweepScript(names: string[]): string {
  if (names.length === 0) return "";
  return `for d in ${names.map(dirWord).join(" ")}; do if [ -d "$d" ] && [ ! -L "$d" ] && [ -O "$d" ]; then rm -rf -- "$d"; fi; done; `;
}

/** Makes the directory (mkdir fails if anything is at that name) and prints its path. */
function mkdirScript(name: string): string {
  return `d=${dirWord(name)} && mkdir -- "$d" && printf '%s\\n' "$d"`;
}
