/**
 * One message of the live window. The assistant's text is Markdown; the user's text, thinking,
 * tool arguments and output are text. A tool-result block appears here only when its call is
 * no longer in the window (the call's card shows it otherwise).
 */
import { For, type JSX, Show } from "solid-js";
import type { ContentBlock, Message } from "../../../../src/types/messages.ts";
import { safeImageSource } from "./image-source.ts";
import { LongText } from "./long-text-view.tsx";
import { MarkdownView } from "./markdown-view.tsx";
import { parseSubagentReport } from "./subagent-report.ts";
import { SubagentReportView } from "./subagent-report-view.tsx";
import { ThinkingView } from "./thinking-view.tsx";
import { ToolCallView } from "./tool-call-view.tsx";
import { ToolResultView } from "./tool-result-view.tsx";
import { useTranscript } from "./transcript-context.ts";

export function MessageView(props: { message: Message }) {
  return (
    <article
      class={`tx-message tx-${props.message.role}`}
      data-testid="message"
      data-role={props.message.role}
      data-message-id={props.message.id}
      title={messageTime(props.message.ts)}
    >
      <For each={props.message.content}>
        {(block, index) => (
          <BlockView block={block} partKey={`${props.message.id}:${index()}`} role={props.message.role} />
        )}
      </For>
    </article>
  );
}

/** When the message was made, for the hover title; nothing for a message without a time. */
function messageTime(ts: number | undefined): string | undefined {
  return ts === undefined ? undefined : new Date(ts).toLocaleString();
}

function BlockView(props: { block: ContentBlock; partKey: string; role: Message["role"] }): JSX.Element {
  const parts = useTranscript();
  const block = props.block;
  switch (block.type) {
    case "text": {
      if (props.role === "assistant") {
        return (
          <LongText partKey={props.partKey} text={block.text}>
            {(shown) => <MarkdownView text={shown()} />}
          </LongText>
        );
      }
      const report = parseSubagentReport(block.text);
      return report !== undefined ? (
        <SubagentReportView partKey={props.partKey} report={report} />
      ) : (
        <LongText partKey={props.partKey} text={block.text}>
          {(shown) => <div class="tx-user-text">{shown()}</div>}
        </LongText>
      );
    }
    case "thinking":
      return <ThinkingView partKey={props.partKey} text={block.text} live={false} />;
    case "tool_call":
      return <ToolCallView partKey={props.partKey} call={block} />;
    case "tool_result":
      return (
        <div
          class="tx-tool tx-orphan"
          data-testid="tool-call"
          data-state={block.is_error ? "failed" : "done"}
        >
          <div class="tx-tool-head">
            <span class="tx-tool-name">result</span>
            <span class="tx-tool-target muted">of an earlier call</span>
          </div>
          <ToolResultView
            partKey={props.partKey}
            result={block}
            record={parts.records().get(block.tool_call_id)}
          />
        </div>
      );
    case "image":
      return (
        <Show
          when={safeImageSource(block.mime_type, block.data)}
          fallback={<span class="muted">[image]</span>}
        >
          {(src) => <img class="tx-thumb" src={src()} alt="attached" />}
        </Show>
      );
  }
}
