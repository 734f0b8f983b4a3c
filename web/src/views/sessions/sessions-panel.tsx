/**
 * The selected agent's sessions: compact now, fork at a message of the live window, and the
 * sessions recorded in its working directory — the one it writes is marked, any other can be
 * resumed (opening the agent that drives it). Titles are user text: shown as text only.
 */
import { createResource, createSignal, For, Show } from "solid-js";
import type { Message } from "../../../../src/types/messages.ts";
import { failed, loaded } from "../../state/attempt.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { onlineKey } from "../../state/online-key.ts";
import { LoadError } from "../shell/load-error.tsx";
import { compactNow, forkAt, listSessions, resumeSession } from "./session-actions.ts";

const PREVIEW_CHARS = 60;

export function SessionsPanel(props: { room: ControlRoom; agentId: string; onClose: () => void }) {
  const snapshot = () => props.room.snapshot(props.agentId)();
  const cwd = () => props.room.agents[props.agentId]?.info.cwd;
  const [sessions, { refetch }] = createResource(
    () => onlineKey(props.room, cwd()),
    ([dir]) => props.room.attempt(() => listSessions(props.room, dir), props.agentId),
  );
  const [forkFrom, setForkFrom] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  const [said, setSaid] = createSignal("");
  const messages = () => (snapshot()?.live_window.messages ?? []).filter((m) => preview(m) !== "");

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setSaid("");
    await props.room.run(work, props.agentId);
    setBusy(false);
  };
  const compact = () =>
    act(async () => {
      const result = await compactNow(props.room, props.agentId);
      if (!result.compacted) setSaid("Nothing to compact yet: the conversation is too short.");
      else
        setSaid(
          `Compacted: ${result.tokens_before.toLocaleString("en")} → ${result.tokens_after.toLocaleString("en")} tokens.`,
        );
    });
  const fork = () =>
    act(async () => {
      const from = forkFrom() || messages().at(-1)?.id;
      if (from === undefined) return;
      await forkAt(props.room, props.agentId, from);
      props.onClose();
    });
  const resume = (sessionId: string) =>
    act(async () => {
      await resumeSession(props.room, sessionId);
      props.onClose();
    });

  return (
    <section class="sessions-panel" data-testid="sessions-panel" aria-label="sessions">
      <div class="session-tools">
        <button type="button" data-testid="compact-now" disabled={busy()} onClick={() => void compact()}>
          Compact now
        </button>
        <label class="fork-at">
          <span>Fork at</span>
          <select data-testid="fork-message" onChange={(e) => setForkFrom(e.currentTarget.value)}>
            <For each={messages()}>
              {(message, i) => (
                <option
                  value={message.id}
                  selected={forkFrom() === "" ? i() === messages().length - 1 : forkFrom() === message.id}
                >
                  {message.role === "user" ? "you" : "agent"}: {preview(message)}
                </option>
              )}
            </For>
          </select>
        </label>
        <button
          type="button"
          data-testid="fork"
          disabled={busy() || messages().length === 0}
          onClick={() => void fork()}
        >
          Fork
        </button>
        <button type="button" class="link" onClick={() => void refetch()}>
          refresh
        </button>
      </div>
      <Show when={said() !== ""}>
        <p class="muted" data-testid="session-said">
          {said()}
        </p>
      </Show>
      <Show when={failed(sessions.latest)}>
        {(error) => <LoadError what="The sessions" error={error()} />}
      </Show>
      <ul class="session-list">
        <For
          each={loaded(sessions.latest) ?? []}
          fallback={
            <Show when={loaded(sessions.latest) !== undefined}>
              <li class="muted">No sessions recorded here yet.</li>
            </Show>
          }
        >
          {(session) => (
            <li class="session" data-testid="session-row" data-session-id={session.session_id}>
              <span class="session-title">{session.title || "(no messages yet)"}</span>
              <span class="agent-meta">
                {new Date(session.updated_at).toLocaleString()} · {session.entry_count} entries
                {session.fork !== undefined ? " · fork" : ""}
              </span>
              <Show
                when={session.session_id === snapshot()?.session_id}
                fallback={
                  <button
                    type="button"
                    data-testid="resume-session"
                    disabled={busy()}
                    onClick={() => void resume(session.session_id)}
                  >
                    Resume
                  </button>
                }
              >
                <span class="badge" data-testid="session-current">
                  this agent
                </span>
              </Show>
            </li>
          )}
        </For>
      </ul>
    </section>
  );
}

/** The first text of a message, shortened, for the fork menu; tool-only messages have none. */
function preview(message: Message): string {
  for (const block of message.content) {
    if (block.type === "text" && block.text.trim() !== "") {
      const text = block.text.trim().replace(/\s+/g, " ");
      return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
    }
  }
  return "";
}
