/**
 * The selected agent's conversation: the live window from its snapshot as a virtualized list,
 * then the message being streamed. A turn that changed files has its checkpoint marker after
 * the message it ended with (Undo to here). Tool results are drawn inside their call's card, with the
 * call's render descriptors from the snapshot's per-call records (so a reload shows the same).
 * Every string from the model or a tool is text, except assistant text, which is Markdown
 * built without any HTML parsing (markdown.ts).
 */
import { createMemo, For, Show } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";
import { changingCheckpoints, createCheckpointList } from "../checkpoints/checkpoint-list.ts";
import { CheckpointMarker } from "../checkpoints/checkpoint-marker.tsx";
import { FailureMarker } from "../failures/failure-marker.tsx";
import { failuresByRow } from "../failures/failure-rows.ts";
import { byRowAfter } from "./after-row.ts";
import { MessageView } from "./message-view.tsx";
import { StreamingView } from "./streaming-view.tsx";
import { createExpansions, TranscriptContext, type TranscriptParts } from "./transcript-context.ts";
import { indexMessages, recordsById } from "./transcript-rows.ts";
import { VirtualList } from "./virtual-list.tsx";
import "./transcript.css";

export function Transcript(props: { room: ControlRoom; agentId: string }) {
  // Keyed: another agent gets its own scroll position, measurements and open parts.
  return (
    <Show when={props.agentId} keyed>
      {(agentId) => <AgentTranscript room={props.room} agentId={agentId} />}
    </Show>
  );
}

function AgentTranscript(props: { room: ControlRoom; agentId: string }) {
  const snapshot = () => props.room.snapshot(props.agentId)();
  const messages = createMemo(() => snapshot()?.live_window.messages ?? []);
  const index = createMemo(() => indexMessages(messages()));
  // Keyed on the records array itself: a delta publishes a new snapshot, not new records.
  const toolCalls = createMemo(() => snapshot()?.tool_calls);
  const records = createMemo(() => recordsById(toolCalls()));
  const streaming = createMemo(() => snapshot()?.streaming_message);
  // Failed and interrupted turns, each after the row of the message it followed.
  const failures = createMemo(() =>
    failuresByRow(messages(), index().rows, snapshot()?.live_window.failures),
  );
  // Each turn that changed files, after the message the turn ended with.
  const checkpoints = createCheckpointList(props.room, () => props.agentId);
  const markers = createMemo(() =>
    byRowAfter(messages(), index().rows, changingCheckpoints(checkpoints.checkpoints()), (c) =>
      c.turn_id === undefined ? undefined : c.after_message_id,
    ),
  );
  const parts: TranscriptParts = {
    results: () => index().results,
    records,
    expansions: createExpansions(),
  };
  return (
    <section class="tx-pane" aria-label="transcript" data-testid="transcript">
      <Show when={snapshot() !== undefined} fallback={<p class="muted tx-attaching">Attaching…</p>}>
        <TranscriptContext.Provider value={parts}>
          <VirtualList
            items={index().rows}
            key={(message) => message.id}
            estimate={88}
            testId="transcript-scroll"
            footer={<Show when={streaming()}>{(live) => <StreamingView message={live()} />}</Show>}
          >
            {(message) => (
              <>
                <MessageView message={message} />
                <For each={failures().get(message.id)}>
                  {(failure) => <FailureMarker room={props.room} agentId={props.agentId} failure={failure} />}
                </For>
                <For each={markers().get(message.id)}>
                  {(checkpoint) => (
                    <CheckpointMarker
                      room={props.room}
                      agentId={props.agentId}
                      list={checkpoints}
                      checkpoint={checkpoint}
                    />
                  )}
                </For>
              </>
            )}
          </VirtualList>
        </TranscriptContext.Provider>
      </Show>
    </section>
  );
}
