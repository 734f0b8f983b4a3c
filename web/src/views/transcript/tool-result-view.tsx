/**
 * A tool's result: its descriptor (a diff, a file, a path list) when it has one, the output as
 * text, a banner when the tool cut the output, the sandbox's explanation of a refusal on its
 * own, and errors in the error style. When a descriptor
 * already shows what the output says, the raw output folds away (a diff's summary stays visible).
 */
import { createMemo, For, Show } from "solid-js";
import type { ToolCallRecord } from "../../../../src/types/agent-events.ts";
import type { ToolResultBlock } from "../../../../src/types/messages.ts";
import { ClippedText } from "./clipped-text.tsx";
import { DescriptorView } from "./descriptor-view.tsx";
import { safeImageSource } from "./image-source.ts";
import { splitSandboxNote } from "./sandbox-note.ts";
import { useTranscript } from "./transcript-context.ts";
import { splitTruncation } from "./truncation.ts";

export function ToolResultView(props: { partKey: string; result: ToolResultBlock; record?: ToolCallRecord }) {
  const { expansions } = useTranscript();
  const failed = () => props.result.is_error === true || props.result.content.kind === "error";
  // Only a confined command's failure carries the runtime's explanation (output could print one).
  const sandboxed = createMemo(() => {
    const text = outputText(props.result);
    const mode = props.record?.sandbox;
    return failed() && mode !== undefined && mode !== "off" ? splitSandboxNote(text) : { body: text };
  });
  const output = createMemo(() => splitTruncation(sandboxed().body));
  const descriptor = () => props.record?.result_render;
  const short = () => output().body.length <= 240 && !output().body.includes("\n");
  // A diff's one-line summary says what the diff does not ("replaced 2 occurrences"); a file's
  // or a path list's output is the descriptor's content again.
  const folded = () => {
    const kind = descriptor()?.kind;
    return kind !== undefined && !failed() && (kind !== "diff" || !short());
  };
  const rawKey = () => `${props.partKey}:raw`;
  return (
    <div
      class="tx-result"
      classList={{ "tx-failed": failed() }}
      data-testid="tool-result"
      data-error={failed() ? "true" : "false"}
    >
      <Show when={output().truncation}>
        {(note) => (
          <p class="tx-truncated" role="note" data-testid="truncated">
            <span class="tx-truncated-label">Output truncated</span> {note()}
          </p>
        )}
      </Show>
      <Show when={descriptor()}>
        {(d) => (
          <DescriptorView partKey={`${props.partKey}:render`} descriptor={d()} figures={props.record ?? {}} />
        )}
      </Show>
      <Show
        when={folded()}
        fallback={
          <ClippedText
            partKey={rawKey()}
            text={output().body}
            class={failed() ? "tx-output tx-error-text" : "tx-output"}
            testId="tool-output"
          />
        }
      >
        <details
          class="tx-raw"
          open={expansions.isOpen(rawKey(), false)}
          onToggle={(e) => {
            // A rebuilt element toggles to the open state it was given: not a choice to record.
            if (e.currentTarget.open !== expansions.isOpen(rawKey(), false))
              expansions.set(rawKey(), e.currentTarget.open);
          }}
        >
          <summary>Output</summary>
          <ClippedText
            partKey={`${rawKey()}:text`}
            text={output().body}
            class="tx-output"
            testId="tool-output"
          />
        </details>
      </Show>
      <Show when={sandboxed().note}>
        {(note) => (
          <p class="tx-sandbox-note" role="note" data-testid="sandbox-note">
            <span class="tx-sandbox-label">Sandbox</span> {note()}
          </p>
        )}
      </Show>
      <Show when={props.result.images?.length}>
        <div class="tx-images">
          <For each={props.result.images ?? []}>
            {(image) => (
              <Show
                when={safeImageSource(image.mime_type, image.data)}
                fallback={<span class="muted">[image]</span>}
              >
                {(src) => <img class="tx-thumb" src={src()} alt="tool output" />}
              </Show>
            )}
          </For>
        </div>
      </Show>
    </div>
  );
}

function outputText(result: ToolResultBlock): string {
  const content = result.content;
  switch (content.kind) {
    case "text":
      return content.text;
    case "json":
      return JSON.stringify(content.value, null, 2) ?? "";
    case "error":
      return content.message;
  }
}
