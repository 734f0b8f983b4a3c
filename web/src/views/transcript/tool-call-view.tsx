/**
 * One tool call as a card: its name and target, its state (waiting, running, done, failed)
 * with exit code, duration and whether it ran sandboxed, what it will do (its call descriptor,
 * else its arguments), its live output while it runs, and its result. Arguments fold away once
 * a descriptor shows more.
 */
import { createMemo, Show } from "solid-js";
import type { ToolCallBlock } from "../../../../src/types/messages.ts";
import type { SandboxMode } from "../../../../src/types/sandbox.ts";
import { DescriptorView } from "./descriptor-view.tsx";
import { exitLabel, formatDuration } from "./format.ts";
import { callTarget } from "./tool-args.ts";
import { ToolArgsView } from "./tool-args-view.tsx";
import { ToolResultView } from "./tool-result-view.tsx";
import { useTranscript } from "./transcript-context.ts";

type CallState = "waiting" | "running" | "done" | "failed";

export function ToolCallView(props: { partKey: string; call: ToolCallBlock }) {
  const parts = useTranscript();
  const record = () => parts.records().get(props.call.id);
  const result = () => parts.results().get(props.call.id);
  const state = createMemo((): CallState => {
    const done = result();
    if (done !== undefined) return done.is_error || done.content.kind === "error" ? "failed" : "done";
    return record() !== undefined ? "running" : "waiting";
  });
  const exit = () => record()?.exit_code ?? result()?.exit_code;
  // A `command` descriptor shows its exit code and duration itself.
  const figuresInHead = () => record()?.call_render?.kind !== "command";
  const argsKey = () => `${props.partKey}:args`;
  const argsOpen = () =>
    parts.expansions.isOpen(
      argsKey(),
      record()?.call_render === undefined && record()?.result_render === undefined,
    );
  return (
    <div class="tx-tool" data-testid="tool-call" data-tool={props.call.name} data-state={state()}>
      <div class="tx-tool-head">
        <span class={`tx-state-dot tx-${state()}`} />
        <span class="tx-tool-name">{props.call.name}</span>
        <span class="tx-tool-target">{callTarget(props.call.args)}</span>
        <span class="tx-tool-figures">
          <span class="tx-state-label">{stateLabel(state())}</span>
          <Show when={figuresInHead() && exit() !== undefined}>
            <span class={exit() === 0 ? "tx-chip tx-ok" : "tx-chip tx-bad"}>{exitLabel(exit() ?? 0)}</span>
          </Show>
          <Show when={figuresInHead() && record()?.duration_ms !== undefined}>
            <span class="tx-chip">{formatDuration(record()?.duration_ms ?? 0)}</span>
          </Show>
          <Show when={record()?.read_only === true}>
            <span class="tx-chip">read-only</span>
          </Show>
          <Show when={record()?.sandbox}>
            {(mode) => (
              <span
                class="tx-chip"
                classList={{ "tx-unconfined": mode() === "off" }}
                data-testid="tool-sandbox"
                data-mode={mode()}
              >
                {sandboxChip(mode())}
              </span>
            )}
          </Show>
        </span>
      </div>
      <Show when={record()?.call_render}>
        {(d) => (
          <DescriptorView partKey={`${props.partKey}:call`} descriptor={d()} figures={record() ?? {}} />
        )}
      </Show>
      <Show when={Object.keys(props.call.args).length > 0}>
        <details
          class="tx-args"
          open={argsOpen()}
          onToggle={(e) => {
            if (e.currentTarget.open !== argsOpen()) parts.expansions.set(argsKey(), e.currentTarget.open);
          }}
        >
          <summary>Arguments</summary>
          <ToolArgsView partKey={argsKey()} args={props.call.args} />
        </details>
      </Show>
      <Show when={state() === "running" ? record()?.live_output : undefined}>
        {(live) => (
          <pre class="tx-output tx-live" data-testid="tool-live-output">
            {live()}
          </pre>
        )}
      </Show>
      <Show when={result()}>
        {(done) => <ToolResultView partKey={`${props.partKey}:result`} result={done()} record={record()} />}
      </Show>
    </div>
  );
}

/** Whether a command ran confined: "sandboxed (workspace-write)" or "not sandboxed". */
function sandboxChip(mode: SandboxMode): string {
  return mode === "off" ? "not sandboxed" : `sandboxed (${mode})`;
}

function stateLabel(state: CallState): string {
  switch (state) {
    case "waiting":
      return "waiting";
    case "running":
      return "running…";
    case "done":
      return "done";
    case "failed":
      return "failed";
  }
}
