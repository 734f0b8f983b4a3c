/**
 * Draws one RenderDescriptor (docs/protocol.md, `RenderDescriptor`) by its kind. Every string in it
 * came from a tool and, through the tool, from the model or the file system: all of it is rendered
 * as text.
 */
import { For, type JSX, Show } from "solid-js";
import type { RenderDescriptor } from "../../../../src/types/render.ts";
import { ClippedText } from "./clipped-text.tsx";
import { CodeView } from "./code-view.tsx";
import { DiffView } from "./diff-view.tsx";
import { exitLabel, formatDuration } from "./format.ts";
import { TreeView } from "./tree-view.tsx";

/** Figures the call's events give when the descriptor itself has none (bash's `command`). */
interface CallFigures {
  exit_code?: number;
  duration_ms?: number;
}

type Of<K extends RenderDescriptor["kind"]> = Extract<RenderDescriptor, { kind: K }>;

const PATHS_SHOWN = 300;

export function DescriptorView(props: {
  partKey: string;
  descriptor: RenderDescriptor;
  figures?: CallFigures;
}) {
  return <>{draw(props.descriptor, props.partKey, props.figures ?? {})}</>;
}

function draw(d: RenderDescriptor, partKey: string, figures: CallFigures): JSX.Element {
  switch (d.kind) {
    case "text":
      return <ClippedText partKey={partKey} text={d.text} class="tx-d-text" testId="descriptor-text" />;
    case "kv":
      return <KvView partKey={partKey} pairs={d.pairs} />;
    case "diff":
      return <DiffView partKey={partKey} path={d.path} hunks={d.hunks} />;
    case "tree":
      return <TreeView root={d.root} />;
    case "progress":
      return <ProgressView descriptor={d} />;
    case "status":
      return (
        <p class={`tx-status tx-tone-${d.tone}`} data-testid="descriptor-status" data-tone={d.tone}>
          {d.label}
        </p>
      );
    case "command":
      return <CommandView partKey={partKey} descriptor={d} figures={figures} />;
    case "path_list":
      return <PathListView paths={d.paths} />;
    case "code":
      return <CodeView partKey={partKey} text={d.text} path={d.path} lang={d.lang} />;
  }
}

function KvView(props: { partKey: string; pairs: Of<"kv">["pairs"] }) {
  return (
    <dl class="tx-kv" data-testid="descriptor-kv">
      <For each={props.pairs}>
        {(pair, i) => (
          <>
            <dt>{pair.k}</dt>
            <dd>
              <ClippedText partKey={`${props.partKey}:${i()}`} text={pair.v} class="tx-kv-text" />
            </dd>
          </>
        )}
      </For>
    </dl>
  );
}

function ProgressView(props: { descriptor: Of<"progress"> }) {
  const total = () => props.descriptor.total;
  return (
    <div class="tx-progress" data-testid="descriptor-progress">
      <span>{props.descriptor.label}</span>
      <Show when={total()} fallback={<progress />}>
        {(max) => <progress max={max()} value={Math.min(props.descriptor.current, max())} />}
      </Show>
      <span class="muted">
        {props.descriptor.current}
        {total() !== undefined ? ` / ${total()}` : ""}
      </span>
    </div>
  );
}

function CommandView(props: { partKey: string; descriptor: Of<"command">; figures: CallFigures }) {
  const exit = () => props.descriptor.exitCode ?? props.figures.exit_code;
  const duration = () => props.descriptor.durationMs ?? props.figures.duration_ms;
  return (
    <div class="tx-command" data-testid="descriptor-command">
      <ClippedText
        partKey={props.partKey}
        text={props.descriptor.command}
        class="tx-command-line"
        prefix={<span class="tx-prompt">$ </span>}
      />
      <div class="tx-command-figures">
        <Show when={exit() !== undefined}>
          <span class={exit() === 0 ? "tx-chip tx-ok" : "tx-chip tx-bad"} data-testid="exit-code">
            {exitLabel(exit() ?? 0)}
          </span>
        </Show>
        <Show when={duration() !== undefined}>
          <span class="tx-chip" data-testid="duration">
            {formatDuration(duration() ?? 0)}
          </span>
        </Show>
      </div>
    </div>
  );
}

function PathListView(props: { paths: Of<"path_list">["paths"] }) {
  const shown = () => props.paths.slice(0, PATHS_SHOWN);
  return (
    <div class="tx-paths" data-testid="descriptor-path_list">
      <Show when={props.paths.length > 0} fallback={<p class="muted tx-empty">(no paths)</p>}>
        <ul>
          <For each={shown()}>
            {(entry) => (
              <li data-kind={entry.kind}>
                <span class={`tx-path tx-${entry.kind}`}>{entry.path}</span>
                <Show when={entry.hint}>{(hint) => <span class="muted"> {hint()}</span>}</Show>
              </li>
            )}
          </For>
        </ul>
        <Show when={props.paths.length > PATHS_SHOWN}>
          <p class="muted">… {props.paths.length - PATHS_SHOWN} more</p>
        </Show>
      </Show>
    </div>
  );
}
