/**
 * The selected agent's conversation: the live window from its snapshot, then the message being
 * streamed. Every string from the model or a tool is rendered as text, never as HTML.
 */
import { createMemo, For, Match, Show, Switch } from "solid-js";
import type { ContentBlock, Message } from "../../../../src/types/shared.ts";
import type { ControlRoom } from "../../state/control-room.ts";

export function Transcript(props: { room: ControlRoom; agentId: string }) {
  const snapshot = () => props.room.snapshot(props.agentId)();
  const messages = createMemo(() => snapshot()?.live_window.messages ?? []);
  const streaming = createMemo(() => snapshot()?.streaming_message);
  return (
    <section class="transcript" aria-label="transcript" data-testid="transcript">
      <Show when={snapshot() !== undefined} fallback={<p class="muted">Attaching…</p>}>
        <For each={messages()}>{(message) => <MessageView message={message} />}</For>
        <Show when={streaming()}>
          {(live) => (
            <article class="message assistant streaming" data-testid="streaming-message">
              <For each={live().blocks}>
                {(block) => (
                  <Switch>
                    <Match when={block.kind === "text"}>
                      <p class="text">{block.text}</p>
                    </Match>
                    <Match when={block.kind === "thinking"}>
                      <p class="thinking">{block.text}</p>
                    </Match>
                    <Match when={block.kind === "tool_call"}>
                      <p class="tool-call">
                        {block.name} {block.args_text}
                      </p>
                    </Match>
                  </Switch>
                )}
              </For>
            </article>
          )}
        </Show>
      </Show>
    </section>
  );
}

function MessageView(props: { message: Message }) {
  return (
    <article class={`message ${props.message.role}`} data-testid="message" data-role={props.message.role}>
      <For each={props.message.content}>{(block) => <BlockView block={block} />}</For>
    </article>
  );
}

function BlockView(props: { block: ContentBlock }) {
  const block = props.block;
  switch (block.type) {
    case "text":
      return <p class="text">{block.text}</p>;
    case "thinking":
      return <p class="thinking">{block.text}</p>;
    case "tool_call":
      return (
        <p class="tool-call">
          {block.name} {JSON.stringify(block.args)}
        </p>
      );
    case "tool_result":
      return (
        <pre class={block.is_error ? "tool-result error" : "tool-result"}>{resultText(block.content)}</pre>
      );
    case "image":
      return <p class="muted">[image]</p>;
  }
}

function resultText(content: Extract<ContentBlock, { type: "tool_result" }>["content"]): string {
  switch (content.kind) {
    case "text":
      return content.text;
    case "json":
      return JSON.stringify(content.value, null, 2);
    case "error":
      return content.message;
  }
}
