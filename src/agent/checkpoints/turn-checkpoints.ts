/**
 * The runtime's checkpoints (docs/checkpoints.md): one before the first tool call of every turn
 * whose mode may change files, `settle()` at that turn's end, and the two commands. The engine
 * (src/checkpoints) loads at the first checkpoint or command, never at start-up. A checkpoint
 * that fails is reported through `report` and the turn goes on without one.
 */
import { cpSync, existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Checkpoints } from "../../checkpoints/checkpoints.ts";
import { checkpointsDir } from "../../checkpoints/checkpoints-dir.ts";
import { readTurnNotes, type TurnNote, writeTurnNote } from "../../checkpoints/turn-notes.ts";
import type { ModePolicy } from "../../contracts/permission-gate.ts";
import { describeError } from "../../support/describe-error.ts";
import { toolAllowed } from "../../tools/tool-pattern.ts";
import type {
  CheckpointDiffResult,
  ListCheckpointsResult,
  RestoreCheckpointResult,
} from "../../types/checkpoints.ts";
import { type Failure, failure } from "../../wire/errors.ts";

/** The tools that change files: a turn whose mode allows one of them gets a checkpoint. */
const WRITING_TOOLS = ["write", "edit", "bash"];

export interface TurnCheckpointsOptions {
  home: string;
  cwd: string;
  sessionId: string;
  /** A checkpoint that could not be taken or settled: a non-fatal `error` event. */
  report: (message: string) => void;
}

export function modeMayWrite(policy: ModePolicy): boolean {
  if (policy.denyMutating) return false;
  const allowed = policy.allowedTools;
  return allowed === undefined || WRITING_TOOLS.some((name) => toolAllowed(allowed, name));
}

export class TurnCheckpoints {
  private engine: Promise<Checkpoints | Failure> | undefined;
  /** The turn that already had its chance at a checkpoint (taken or failed): one try per turn. */
  private triedFor: string | undefined;
  /** The checkpoint taken before the running turn, settled at its end. */
  private taken: { turnId: string; checkpointId: string } | undefined;
  /** The session whose checkpoints these are (a conversation restore moves to its fork). */
  private sessionId: string;

  constructor(private readonly options: TurnCheckpointsOptions) {
    this.sessionId = options.sessionId;
  }

  private get gitDir(): string {
    return checkpointsDir(this.options.home, this.sessionId);
  }

  /**
   * Before tool calls run in turn `turnId`, started by the user message `promptId`; only the
   * first call of a turn takes one.
   */
  async beforeTools(turnId: string, promptId: string, policy: ModePolicy): Promise<void> {
    if (this.triedFor === turnId || !modeMayWrite(policy)) return;
    this.triedFor = turnId;
    const engine = await this.open();
    if ("error" in engine)
      return this.options.report(`no checkpoint before this turn: ${engine.error.message}`);
    const made = await engine.checkpoint(`turn ${turnId}`);
    if (!made.ok) return this.options.report(`no checkpoint before this turn: ${made.error.message}`);
    this.taken = { turnId, checkpointId: made.checkpoint.checkpoint_id };
    await this.note(engine, made.checkpoint.checkpoint_id, {
      turn_id: turnId,
      ...(promptId !== "" ? { prompt_message_id: promptId } : {}),
      files_changed: 0,
    });
  }

  /**
   * The end of turn `turnId`: what it changed is recorded against its checkpoint, with the
   * conversation's newest message then (`afterMessageId`), where clients draw the turn's marker.
   */
  async endTurn(turnId: string, afterMessageId?: string): Promise<void> {
    const taken = this.taken;
    if (taken?.turnId !== turnId) return;
    this.taken = undefined;
    const engine = await this.open();
    if ("error" in engine) return;
    const settled = await engine.settle();
    if (!settled.ok) return this.options.report(`checkpoint not settled: ${settled.error.message}`);
    await this.note(engine, taken.checkpointId, {
      files_changed: settled.files_changed,
      ...(afterMessageId !== undefined ? { after_message_id: afterMessageId } : {}),
    });
  }

  async list(): Promise<{ ok: true; data: ListCheckpointsResult } | Failure> {
    // A client that only looks (the web lists on every attach) creates no shadow repository.
    if (this.engine === undefined && !existsSync(join(this.gitDir, "HEAD"))) {
      return { ok: true, data: { checkpoints: [] } };
    }
    const engine = await this.open();
    if ("error" in engine) return engine;
    const listed = await engine.list();
    if (!listed.ok) return failure("INTERNAL_ERROR", listed.error.message);
    const notes = readTurnNotes(this.gitDir);
    const checkpoints = listed.checkpoints.map((c) => {
      const note = notes[c.checkpoint_id];
      return {
        checkpoint_id: c.checkpoint_id,
        ...(note?.turn_id !== undefined ? { turn_id: note.turn_id } : {}),
        created_at: c.created_at,
        files_changed: note?.files_changed ?? c.files_changed,
        ...(note?.after_message_id !== undefined ? { after_message_id: note.after_message_id } : {}),
      };
    });
    return { ok: true, data: { checkpoints } };
  }

  async diff(checkpointId: string): Promise<{ ok: true; data: CheckpointDiffResult } | Failure> {
    const engine = await this.open();
    if ("error" in engine) return engine;
    const diffed = await engine.diff(checkpointId);
    if (!diffed.ok) {
      const { code, message } = diffed.error;
      return failure(code === "NOT_FOUND" ? "NOT_FOUND" : "INTERNAL_ERROR", message);
    }
    return {
      ok: true,
      data: { checkpoint_id: checkpointId, files: diffed.files, truncated: diffed.truncated },
    };
  }

  async restore(
    checkpointId: string,
    force: boolean,
  ): Promise<{ ok: true; data: RestoreCheckpointResult } | Failure> {
    const engine = await this.open();
    if ("error" in engine) return engine;
    const restored = await engine.restore(checkpointId, { force });
    if (!restored.ok) {
      const { code, message } = restored.error;
      if (code === "CONFLICT") {
        return failure(
          "CONFLICT",
          `${message} (send restore_checkpoint again with force: true to overwrite them)`,
          { conflicts: restored.conflicts ?? [] },
        );
      }
      return failure(code === "NOT_FOUND" ? "NOT_FOUND" : "INTERNAL_ERROR", message);
    }
    await this.note(engine, restored.undo.checkpoint_id, { files_changed: restored.files.length });
    return { ok: true, data: { restored: restored.files, undo_checkpoint_id: restored.undo.checkpoint_id } };
  }

  /**
   * The prompt of the turn checkpoint `checkpointId` was taken before: what a restore with
   * `conversation` forks before. NOT_FOUND for an id not kept; INVALID_REQUEST for a checkpoint
   * a restore took (no turn) or one from before prompts were noted.
   */
  async promptOf(checkpointId: string): Promise<{ ok: true; promptId: string } | Failure> {
    const listed = await this.list();
    if (!listed.ok) return listed;
    if (!listed.data.checkpoints.some((c) => c.checkpoint_id === checkpointId))
      return failure("NOT_FOUND", `no checkpoint ${checkpointId}`);
    const promptId = readTurnNotes(this.gitDir)[checkpointId]?.prompt_message_id;
    if (promptId === undefined)
      return failure(
        "INVALID_REQUEST",
        `checkpoint ${checkpointId} was not taken before a turn's prompt; restore it without conversation`,
      );
    return { ok: true, promptId };
  }

  /**
   * The session continues as its fork `forkSessionId`: the checkpoints so far are copied to the
   * fork's directory (the source session keeps its own), so the fork can still undo them and
   * deleting either session leaves the other's intact. The copy appears whole or not at all.
   */
  moveTo(forkSessionId: string): void {
    const from = this.gitDir;
    const to = checkpointsDir(this.options.home, forkSessionId);
    if (existsSync(from)) {
      const staging = `${to}.tmp-${process.pid}`;
      rmSync(staging, { recursive: true, force: true });
      cpSync(from, staging, { recursive: true });
      renameSync(staging, to);
    }
    this.sessionId = forkSessionId;
    this.engine = undefined;
    this.taken = undefined;
  }

  private open(): Promise<Checkpoints | Failure> {
    this.engine ??= (async () => {
      try {
        const { Checkpoints } = await import("../../checkpoints/checkpoints.ts");
        const { loadCheckpointRetention } = await import("../../checkpoints/retention-config.ts");
        const { retention, warnings } = loadCheckpointRetention(this.options.home);
        for (const warning of warnings) this.options.report(warning);
        const opened = await Checkpoints.open({ gitDir: this.gitDir, cwd: this.options.cwd, retention });
        return opened.ok ? opened.checkpoints : failure("INTERNAL_ERROR", opened.error.message);
      } catch (err) {
        return failure("INTERNAL_ERROR", `checkpoints unavailable: ${describeError(err)}`);
      }
    })();
    return this.engine;
  }

  /** A note that cannot be written costs only its count in the listing; the turn goes on. */
  private async note(engine: Checkpoints, checkpointId: string, note: TurnNote): Promise<void> {
    try {
      const listed = await engine.list();
      const kept = listed.ok ? listed.checkpoints.map((c) => c.checkpoint_id) : [];
      writeTurnNote(this.gitDir, checkpointId, note, kept);
    } catch (err) {
      this.options.report(`checkpoint note not written: ${describeError(err)}`);
    }
  }
}
