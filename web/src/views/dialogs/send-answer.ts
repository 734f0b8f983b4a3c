/**
 * Sends a dialog's answer once: the dialog is marked answered here (so `*_resolved` is not shown
 * as "answered elsewhere"), focus leaves the dialog at once (the next key must be text, never a
 * second approval), and a refused answer re-opens the dialog for another try.
 */
import { createSignal } from "solid-js";
import type { Outbound } from "../../connection/daemon-connection.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { returnFocusToComposer } from "../focus/composer-focus.ts";
import type { ResolvedLog } from "./resolved-log.ts";

export interface AnswerTarget {
  room: ControlRoom;
  agentId: string;
  requestId: string;
  log: ResolvedLog;
  section(): HTMLElement | undefined;
}

export function createAnswerSender(target: () => AnswerTarget) {
  const [sending, setSending] = createSignal(false);
  const send = async (command: Outbound) => {
    if (sending()) return;
    setSending(true);
    const { room, agentId, requestId, log, section } = target();
    log.answeredHere(requestId);
    if (section()?.contains(document.activeElement) === true) returnFocusToComposer();
    const sent = await room.run(() => room.connection.call(command), agentId);
    // Accepted: the dialog closes on its `*_resolved`. Refused: it stays, to answer again.
    if (!sent) {
      log.notAnsweredHere(requestId);
      setSending(false);
    }
  };
  return { sending, send };
}
