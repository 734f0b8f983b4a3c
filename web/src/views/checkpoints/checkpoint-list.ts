/**
 * An agent's checkpoints (`list_checkpoints`, docs/checkpoints.md) for the transcript's markers
 * and the Changes view: asked once the agent is attached, again at every `turn_end` and after
 * any restore from this page. A checkpoint keeps its object across refreshes while it is
 * unchanged, so a marker drawn for it is not redrawn. The outcome of an Undo is kept here by
 * checkpoint id: it outlives a row the virtualized transcript unmounts.
 */
import { createResource, createSignal, onCleanup } from "solid-js";
import type { CheckpointSummary } from "../../../../src/types/checkpoints.ts";
import type { ControlRoom } from "../../state/control-room.ts";

/** Bumped by every restore from this page: every list (transcript, Changes) asks again. */
const [restores, setRestores] = createSignal(0);

export function noteRestore(): void {
  setRestores((n) => n + 1);
}

/** What a restore has done to the files: views that show files (Changes) key on it. */
export function restoreCount(): number {
  return restores();
}

export type UndoState =
  | { kind: "idle" }
  | { kind: "confirm" }
  | { kind: "sending"; force: boolean }
  | { kind: "conflict"; files: readonly string[] }
  | { kind: "done"; files: readonly string[] }
  | { kind: "cancelled" }
  | { kind: "failed"; message: string };

export interface CheckpointList {
  /** Newest first; empty until loaded, or when the runtime cannot answer (stopped). */
  checkpoints(): readonly CheckpointSummary[];
  undoState(checkpointId: string): UndoState;
  setUndoState(checkpointId: string, state: UndoState): void;
}

/** Keeps at most this many Undo outcomes (the runtime keeps 100 checkpoints by default). */
const MAX_OUTCOMES = 200;

export function createCheckpointList(room: ControlRoom, agentId: () => string): CheckpointList {
  const [ends, setEnds] = createSignal(0);
  const stop = room.onAgentEvent((id, event) => {
    if (id === agentId() && event.type === "turn_end") setEnds((n) => n + 1);
  });
  onCleanup(stop);
  const key = () => {
    const id = agentId();
    const opening = room.attached(id)();
    return opening === false ? false : ([id, opening, ends(), restores()] as const);
  };
  let kept = new Map<string, CheckpointSummary>();
  const [listed] = createResource(key, async ([id]) => {
    try {
      const { checkpoints } = await room.connection.call({ type: "list_checkpoints", agent_id: id });
      // The previous object for an unchanged checkpoint: its marker stays as it is.
      const next = new Map<string, CheckpointSummary>();
      const stable = checkpoints.map((c) => {
        const before = kept.get(c.checkpoint_id);
        const same = before !== undefined && JSON.stringify(before) === JSON.stringify(c);
        const chosen = same ? before : c;
        next.set(c.checkpoint_id, chosen);
        return chosen;
      });
      kept = next;
      return { agentId: id, checkpoints: stable };
    } catch {
      // A stopped runtime cannot list (CONFLICT): no markers, and no notice for a read.
      return { agentId: id, checkpoints: [] };
    }
  });
  const [outcomes, setOutcomes] = createSignal<ReadonlyMap<string, UndoState>>(new Map());
  return {
    checkpoints: () => {
      const l = listed.latest;
      return l !== undefined && l.agentId === agentId() ? l.checkpoints : [];
    },
    undoState: (id) => outcomes().get(id) ?? { kind: "idle" },
    setUndoState: (id, state) =>
      setOutcomes((current) => {
        const next = new Map(current);
        next.delete(id);
        next.set(id, state);
        if (next.size > MAX_OUTCOMES) {
          const oldest = next.keys().next();
          if (!oldest.done) next.delete(oldest.value);
        }
        return next;
      }),
  };
}

/** The checkpoints worth a marker: those before a turn, or a restore, that changed files. */
export function changingCheckpoints(list: readonly CheckpointSummary[]): CheckpointSummary[] {
  return list.filter((c) => c.files_changed > 0);
}

export function filesChangedLabel(n: number): string {
  return `${n} file${n === 1 ? "" : "s"} changed`;
}
