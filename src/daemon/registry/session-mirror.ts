/**
 * The daemon's copy of the sessions its agents write on other placements (docs/placements.md,
 * sessions): `$SHARD_HOME/placements/<name>/sessions/<session_id>/session.jsonl`.
 *
 * The rule: the runtime writes its session on the placement, which is the one it resumes. The
 * daemon pulls a copy (`shard session export` through the placement) after every `turn_end` it
 * forwards and when a generation exits, and pushes it back (`shard session import`) before the
 * next generation starts. The import keeps the placement's file unless it is missing or a strict
 * prefix of the copy, so a restart resumes from whichever of the two has more, and a host that
 * lost its files (a new machine, a container without a volume) gets every turn the daemon saw
 * end. Transfers of one agent run one at a time, in order; a failed pull keeps the last copy.
 */
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { placementArgv } from "../../placements/placement-argv.ts";
import type { NamedPlacement } from "../../placements/placement-config.ts";
import { SESSION_ID } from "../../placements/session-transfer.ts";
import { describeError } from "../../support/describe-error.ts";

/** One transfer at most this long; a hung link must not stall the agent's next start forever. */
const TRANSFER_TIMEOUT_MS = 60_000;

export interface MirrorContext {
  home: string;
  env: Record<string, string | undefined>;
  log(line: string): void;
}

export function mirrorPath(home: string, placement: string, sessionId: string): string {
  return join(home, "placements", placement, "sessions", sessionId, "session.jsonl");
}

export class SessionMirror {
  /** Per agent: the last transfer queued, so they run in order and a push waits for pulls. */
  private readonly chains = new Map<string, Promise<void>>();
  /**
   * Pulls queued and not started, by agent and session: a second request for the same session
   * joins one. Keyed by session too, because a conversation restore moves the agent to a fork
   * while a pull of the session it left may still be queued: that pull must not swallow the
   * fork's, or the daemon's copy of the fork would stay behind.
   */
  private readonly pullQueued = new Set<string>();

  constructor(private readonly context: MirrorContext) {}

  /** Refreshes the daemon's copy from the placement (queued behind this agent's transfers). */
  pull(agentId: string, placement: NamedPlacement, sessionId: string | undefined): void {
    if (sessionId === undefined || !SESSION_ID.test(sessionId)) return;
    const key = `${agentId}/${sessionId}`;
    if (this.pullQueued.has(key)) return;
    this.pullQueued.add(key);
    this.enqueue(agentId, async () => {
      this.pullQueued.delete(key);
      await this.runPull(placement, sessionId);
    });
  }

  /** Puts the daemon's copy on the placement before a start (after this agent's pending pulls). */
  push(agentId: string, placement: NamedPlacement, sessionId: string | undefined): Promise<void> {
    if (sessionId === undefined || !SESSION_ID.test(sessionId)) return Promise.resolve();
    return this.enqueue(agentId, () => this.runPush(placement, sessionId));
  }

  /** Resolves when every transfer queued so far has finished. */
  settled(agentId: string): Promise<void> {
    return this.chains.get(agentId) ?? Promise.resolve();
  }

  private enqueue(agentId: string, work: () => Promise<void>): Promise<void> {
    const next = (this.chains.get(agentId) ?? Promise.resolve()).then(work).catch((err) => {
      this.context.log(`agent ${agentId}: session copy: ${describeError(err)}`);
    });
    this.chains.set(agentId, next);
    void next.then(() => {
      if (this.chains.get(agentId) === next) this.chains.delete(agentId);
    });
    return next;
  }

  private async runPull(placement: NamedPlacement, sessionId: string): Promise<void> {
    const path = mirrorPath(this.context.home, placement.name, sessionId);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const tmp = `${path}.pulling`;
    const fd = openSync(tmp, "w", 0o600);
    let failed: string | undefined;
    try {
      failed = await this.run(placementArgv(placement, ["session", "export", sessionId]), "ignore", fd);
    } finally {
      closeSync(fd);
    }
    // An empty answer is a failed export too: never replace a copy with nothing.
    if (failed === undefined && statSync(tmp).size > 0) renameSync(tmp, path);
    else {
      rmSync(tmp, { force: true });
      this.context.log(
        `session ${sessionId}: could not copy it from placement ${placement.name} (${failed ?? "empty"}); the daemon keeps its last copy`,
      );
    }
  }

  private async runPush(placement: NamedPlacement, sessionId: string): Promise<void> {
    const path = mirrorPath(this.context.home, placement.name, sessionId);
    let fd: number;
    try {
      fd = openSync(path, "r");
    } catch {
      return; // no copy yet: nothing to give back
    }
    try {
      const failed = await this.run(placementArgv(placement, ["session", "import", sessionId]), fd, "ignore");
      if (failed !== undefined)
        this.context.log(
          `session ${sessionId}: could not put the daemon's copy on placement ${placement.name} (${failed})`,
        );
    } finally {
      closeSync(fd);
    }
  }

  /** The exit code, and the last line of stderr when it failed (what ssh or shard said). */
  private async run(
    argv: string[],
    stdin: number | "ignore",
    stdout: number | "ignore",
  ): Promise<string | undefined> {
    const proc = Bun.spawn(argv, {
      cwd: this.context.home,
      env: this.context.env,
      stdin,
      stdout,
      stderr: "pipe",
    });
    const timer = setTimeout(() => proc.kill("SIGKILL"), TRANSFER_TIMEOUT_MS);
    try {
      const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
      if (code === 0) return undefined;
      const said = err.trim().split("\n").at(-1)?.slice(0, 300) ?? "";
      return `exit ${code}${said === "" ? "" : `: ${said}`}`;
    } finally {
      clearTimeout(timer);
    }
  }
}
