/**
 * Files of a tree diff (`workspace.diff`, `agent.changes`), each with its status and drawn like
 * the transcript's diffs. Inside a TranscriptContext (standaloneParts) for the expanders.
 */
import { For } from "solid-js";
import type { WorkspaceDiffFile } from "../../../../src/types/workspace.ts";
import { DiffView } from "./diff-view.tsx";

export function FileDiffList(props: {
  files: readonly WorkspaceDiffFile[];
  /** Names the rows' test ids (`<kind>-file`, `<kind>-status`) and their expand keys. */
  kind: string;
  /** What the diffs are of (an agent or a workspace id): keeps expand keys apart. */
  owner: string;
}) {
  return (
    <For each={props.files}>
      {(file) => (
        <div class={`${props.kind}-file`} data-testid={`${props.kind}-file`} data-path={file.path}>
          <p class="agent-meta">
            <span data-testid={`${props.kind}-status`}>{file.status}</span>
            {file.old_path !== undefined ? ` from ${file.old_path}` : ""}
            {file.binary ? " · binary" : ""}
          </p>
          <DiffView
            partKey={`${props.kind}:${props.owner}:${file.path}`}
            path={file.path}
            hunks={file.hunks}
          />
        </div>
      )}
    </For>
  );
}
