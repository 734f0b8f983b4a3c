/**
 * `/checkpoints`, `/undo`, `/rewind` and `/restore` in `shard attach` (docs/checkpoints.md): the
 * agent's checkpoints listed; the last file-changing turn undone, files only (`/undo`) or files
 * and conversation (`/rewind`); any checkpoint restored by id (`/restore <id>`, a unique prefix
 * will do). Typing `/undo` or `/rewind` again steps one turn further back, as long as nothing
 * happened in between. Files changed since the agent's last turn are named and the person is
 * asked "overwrite? [y/N]"; only a typed `y` resends with `force`.
 */
import { type CallOf, checkResult } from "../client/command-result.ts";
import type { Command } from "../client/request-channel.ts";
import { restoreConflicts } from "../client/restore-conflicts.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import type { CheckpointSummary } from "../types/checkpoints.ts";
import type { CommandType, ResultMap } from "../types/command-table.ts";
import type { WireError } from "../wire/errors.ts";
import { sharedCheck } from "../wire/schema-check.ts";
import type { RequestResult } from "./daemon-stream.ts";

export type AttachRequester = (command: Command) => Promise<RequestResult>;

type Answer<T extends CommandType> = { ok: true; result: ResultMap[T] } | { ok: false; error: WireError };

/** One restore a typed command asks for: which checkpoint, with the conversation or not, and how it is told. */
interface Restore {
  command: "/undo" | "/rewind" | "/restore";
  checkpointId: string;
  conversation: boolean;
  /** What the files (and conversation) go back to, for the status line. */
  target: string;
  /** For `/undo` and `/rewind`: how many turns back this restore goes. */
  steps?: number;
}

/**
 * Where the last `/undo` or `/rewind` left the agent: the turn checkpoint it restored, the
 * checkpoint that restore took first, and how many turns back that was. A next `/undo` or
 * `/rewind` goes one turn further only while that restore's checkpoint is still the newest
 * (no turn and no other restore since); otherwise it starts again from the last turn.
 */
interface Position {
  restored: string;
  undo: string;
  steps: number;
}

export class AttachCheckpoints {
  /** The restore a CONFLICT refused, while "overwrite? [y/N]" waits for its answer. */
  private confirming: Restore | undefined;
  private position: Position | undefined;

  constructor(
    private readonly agentId: string,
    private readonly request: AttachRequester,
    private readonly status: (text: string) => void,
  ) {}

  /** Whether the next typed line answers "overwrite? [y/N]". */
  asking(): boolean {
    return this.confirming !== undefined;
  }

  async list(): Promise<void> {
    const listed = await this.call({ type: "list_checkpoints", agent_id: this.agentId });
    if (!listed.ok) return this.failed("/checkpoints", listed.error);
    const { checkpoints } = listed.result;
    if (checkpoints.length === 0) {
      this.status("no checkpoints yet: one is taken before each turn that may change files\n");
      return;
    }
    this.status(`${checkpoints.map(describe).join("\n")}\n`);
  }

  /**
   * `/undo` (files) or `/rewind` (files and conversation): the checkpoint before the last turn
   * that changed files, or, right after an `/undo` or `/rewind`, the one before the turn before.
   */
  async back(command: "/undo" | "/rewind"): Promise<void> {
    const listed = await this.call({ type: "list_checkpoints", agent_id: this.agentId });
    if (!listed.ok) return this.failed(command, listed.error);
    const { checkpoints } = listed.result;
    const turns = checkpoints.filter((c) => c.turn_id !== undefined);
    const position = this.position;
    const stepping = position !== undefined && checkpoints[0]?.checkpoint_id === position.undo;
    const from = stepping ? turns.findIndex((c) => c.checkpoint_id === position.restored) + 1 : 0;
    const target = stepping && from === 0 ? undefined : turns[from];
    if (target === undefined) {
      this.status(
        stepping
          ? `${command}: no older checkpoint is kept; nothing restored\n`
          : `${command}: no turn has changed files yet\n`,
      );
      return;
    }
    const steps = stepping ? position.steps + 1 : 1;
    await this.restore(
      {
        command,
        checkpointId: target.checkpoint_id,
        conversation: command === "/rewind",
        target: steps === 1 ? "before the last turn" : `before the last ${steps} turns`,
        steps,
      },
      false,
    );
  }

  /** `/restore <id>` or `/restore <id> --conversation`: one checkpoint, by id or a unique prefix of one. */
  async restoreById(args: string): Promise<void> {
    const words = args.split(/\s+/).filter((w) => w !== "");
    const conversation = words.includes("--conversation");
    const ids = words.filter((w) => w !== "--conversation");
    const [prefix] = ids;
    if (prefix === undefined || ids.length > 1) {
      this.status("/restore: usage: /restore <checkpoint id> [--conversation] (/checkpoints lists them)\n");
      return;
    }
    const listed = await this.call({ type: "list_checkpoints", agent_id: this.agentId });
    if (!listed.ok) return this.failed("/restore", listed.error);
    const matching = listed.result.checkpoints.filter((c) => c.checkpoint_id.startsWith(prefix));
    const [target] = matching;
    if (target === undefined || matching.length > 1) {
      const why = matching.length > 1 ? "names more than one checkpoint" : "is no checkpoint";
      this.status(`/restore: ${terminalLine(prefix)} ${why}; /checkpoints lists them\n`);
      return;
    }
    const id = target.checkpoint_id;
    await this.restore(
      { command: "/restore", checkpointId: id, conversation, target: `checkpoint ${id.slice(0, 12)}` },
      false,
    );
  }

  /** The typed answer to "overwrite? [y/N]": only y (or yes) overwrites. */
  async answer(line: string): Promise<void> {
    const asked = this.confirming;
    this.confirming = undefined;
    if (asked === undefined) return;
    if (!/^y(es)?$/i.test(line.trim())) {
      this.status(`${asked.command}: not restored; your files are as they were\n`);
      return;
    }
    await this.restore(asked, true);
  }

  private async restore(restore: Restore, force: boolean): Promise<void> {
    const { command, checkpointId, conversation } = restore;
    const restored = await this.call({
      type: "restore_checkpoint",
      agent_id: this.agentId,
      checkpoint_id: checkpointId,
      ...(force ? { force } : {}),
      ...(conversation ? { conversation } : {}),
    });
    if (restored.ok) {
      const { restored: paths, undo_checkpoint_id, conversation: fork } = restored.result;
      this.position =
        restore.steps === undefined
          ? undefined
          : { restored: checkpointId, undo: undo_checkpoint_id, steps: restore.steps };
      const files = paths.length === 0 ? "no files differed" : paths.map(terminalLine).join(", ");
      const what = fork === undefined ? "the files" : "the files and the conversation";
      const session =
        fork === undefined ? "" : `; the agent continues in session ${terminalLine(fork.session_id)}`;
      this.status(`${command}: restored ${what} to ${restore.target} (${files})${session}\n`);
      return;
    }
    const conflicts = restored.error.code === "CONFLICT" ? restoreConflicts(restored.error.data) : undefined;
    if (conflicts === undefined || force) return this.failed(command, restored.error);
    this.confirming = restore;
    this.status(
      `${command}: changed since the agent's last turn: ${conflicts.map(terminalLine).join(", ")}\noverwrite? [y/N] `,
    );
  }

  private async call<T extends CommandType>(command: CallOf<T>): Promise<Answer<T>> {
    const result = await this.request(command);
    if (!result.ok) return { ok: false, error: result.error };
    const { response } = result;
    if (!response.success)
      return { ok: false, error: response.error ?? { code: "INTERNAL_ERROR", message: "refused" } };
    const checked = checkResult(command.type, response.data, sharedCheck);
    return checked.ok ? { ok: true, result: checked.result } : { ok: false, error: checked.error };
  }

  private failed(what: string, error: WireError): void {
    this.status(`${what}: ${error.code}: ${terminalLine(error.message)}\n`);
  }
}

/** One line: id, the turn (or "restore" for a restore's undo checkpoint), local time, files. */
function describe(c: CheckpointSummary): string {
  const when = new Date(c.created_at).toLocaleString();
  const turn = c.turn_id === undefined ? "restore" : `turn ${terminalLine(c.turn_id)}`;
  const files = c.files_changed === 1 ? "1 file changed" : `${c.files_changed} files changed`;
  return `  ${terminalLine(c.checkpoint_id)}  ${turn}  ${when}  ${files}`;
}
