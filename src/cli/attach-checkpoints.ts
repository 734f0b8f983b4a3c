/**
 * `/checkpoints` and `/undo` in `shard attach` (docs/checkpoints.md): the agent's checkpoints
 * listed, and the last file-changing turn undone. Files changed since the agent's last turn are
 * named and the person is asked "overwrite? [y/N]"; only a typed `y` resends with `force`.
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

export class AttachCheckpoints {
  /** The checkpoint a refused `/undo` would restore, while "overwrite? [y/N]" waits for its answer. */
  private confirming: string | undefined;

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

  /** Restores the newest checkpoint taken before a turn: the files as they were before that turn. */
  async undo(): Promise<void> {
    const listed = await this.call({ type: "list_checkpoints", agent_id: this.agentId });
    if (!listed.ok) return this.failed("/undo", listed.error);
    const last = listed.result.checkpoints.find((c) => c.turn_id !== undefined);
    if (last === undefined) {
      this.status("/undo: no turn has changed files yet\n");
      return;
    }
    await this.restore(last.checkpoint_id, false);
  }

  /** The typed answer to "overwrite? [y/N]": only y (or yes) overwrites. */
  async answer(line: string): Promise<void> {
    const checkpointId = this.confirming;
    this.confirming = undefined;
    if (checkpointId === undefined) return;
    if (!/^y(es)?$/i.test(line.trim())) {
      this.status("/undo: not restored; your files are as they were\n");
      return;
    }
    await this.restore(checkpointId, true);
  }

  private async restore(checkpointId: string, force: boolean): Promise<void> {
    const restored = await this.call({
      type: "restore_checkpoint",
      agent_id: this.agentId,
      checkpoint_id: checkpointId,
      ...(force ? { force } : {}),
    });
    if (restored.ok) {
      const { restored: paths } = restored.result;
      const files = paths.length === 0 ? "no files differed" : paths.map(terminalLine).join(", ");
      this.status(`/undo: restored the files to before the last turn (${files})\n`);
      return;
    }
    const conflicts = restored.error.code === "CONFLICT" ? restoreConflicts(restored.error.data) : undefined;
    if (conflicts === undefined || force) return this.failed("/undo", restored.error);
    this.confirming = checkpointId;
    this.status(
      `/undo: changed since the agent's last turn: ${conflicts.map(terminalLine).join(", ")}\noverwrite? [y/N] `,
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
