/**
 * The assistant message whose deltas are arriving: its text re-rendered as Markdown at most
 * once a frame, its thinking open, its tool calls with their arguments as they stream in.
 */
import { Index, Match, Show, Switch } from "solid-js";
import type { StreamingMessage } from "../../../../src/types/streaming-message.ts";
import { ClippedText } from "./clipped-text.tsx";
import { LongText } from "./long-text-view.tsx";
import { MarkdownView } from "./markdown-view.tsx";
import { ThinkingView } from "./thinking-view.tsx";
import { parsedArgs } from "./tool-args.ts";
import { ToolArgsView } from "./tool-args-view.tsx";

export function StreamingView(props: { message: StreamingMessage }) {
  return (
    <article class="tx-message tx-assistant tx-streaming" data-testid="streaming-message">
      {/* By index: a delta replaces its block's object, and the block's view must stay. */}
      <Index each={props.message.blocks}>
        {(block, index) => (
          <Switch>
            <Match when={block().kind === "text"}>
              <LongText partKey={`${props.message.message_id}:${index}`} text={block().text ?? ""}>
                {(shown) => <MarkdownView text={shown()} live />}
              </LongText>
            </Match>
            <Match when={block().kind === "thinking"}>
              <ThinkingView partKey={`${props.message.message_id}:${index}`} text={block().text ?? ""} live />
            </Match>
            <Match when={block().kind === "tool_call"}>
              <div
                class="tx-tool"
                data-testid="tool-call"
                data-tool={block().name ?? ""}
                data-state="streaming"
              >
                <div class="tx-tool-head">
                  <span class="tx-state-dot tx-running" />
                  <span class="tx-tool-name">{block().name ?? "tool"}</span>
                  <span class="tx-tool-figures tx-state-label">preparing…</span>
                </div>
                <Show
                  when={parsedArgs(block().args_text)}
                  fallback={
                    <ClippedText
                      partKey={`${props.message.message_id}:${index}:args-text`}
                      text={block().args_text ?? ""}
                      class="tx-output tx-args-text"
                    />
                  }
                >
                  {(args) => (
                    <ToolArgsView partKey={`${props.message.message_id}:${index}:args`} args={args()} />
                  )}
                </Show>
              </div>
            </Match>
          </Switch>
        )}
      </Index>
    </article>
  );
}
