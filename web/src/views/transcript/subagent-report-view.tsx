/**
 * A subagent's completion report as a card: which child, what task, how it ended; its final
 * text (the child's reply, Markdown like any model text) folds away until asked for.
 */
import { Show } from "solid-js";
import { LongText } from "./long-text-view.tsx";
import { MarkdownView } from "./markdown-view.tsx";
import { outcomeLabel, type SubagentReport } from "./subagent-report.ts";
import { useTranscript } from "./transcript-context.ts";

export function SubagentReportView(props: { partKey: string; report: SubagentReport }) {
  const { expansions } = useTranscript();
  const open = () => expansions.isOpen(props.partKey, false);
  const ok = () => props.report.state === "completed";
  return (
    <details
      class="tx-report"
      classList={{ "tx-failed": !ok() }}
      data-testid="subagent-report"
      data-state={props.report.state}
      open={open()}
      onToggle={(e) => {
        if (e.currentTarget.open !== open()) expansions.set(props.partKey, e.currentTarget.open);
      }}
    >
      <summary>
        <span class="tx-report-title">
          Subagent <strong data-testid="subagent-report-child">{props.report.alias}</strong>{" "}
          <span data-testid="subagent-report-outcome">{outcomeLabel(props.report.state)}</span>
        </span>
        <span class="tx-report-task muted">{props.report.taskName}</span>
      </summary>
      <Show when={props.report.error}>
        {(error) => <p class="tx-error-text tx-report-error">{error()}</p>}
      </Show>
      <LongText partKey={`${props.partKey}:text`} text={props.report.finalText}>
        {(shown) => <MarkdownView text={shown()} />}
      </LongText>
    </details>
  );
}
