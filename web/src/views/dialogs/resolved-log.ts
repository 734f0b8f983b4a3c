/**
 * What happened to requests this page did not answer itself: another client answered, or the
 * runtime closed them (abort, end of turn, headless timeout). The snapshot drops a request on
 * its `*_resolved`, so the page keeps a small record to say so. Bounded: the last few only.
 */
import { type Accessor, createSignal, onCleanup } from "solid-js";
import type { AgentEvent } from "../../../../src/types/catalog.ts";
import type { PermissionRequest, UiRequest } from "../../../../src/types/permissions.ts";
import type { ControlRoom } from "../../state/control-room.ts";

export interface ResolvedEntry {
  key: number;
  agentId: string;
  requestId: string;
  /** "bash", or a question's title. */
  subject: string;
  /** "Allow once", "deny", "\"blue\"", "no answer". */
  outcome: string;
  /**
   * Who closed it: another browser (by its enrolled label), another client (a terminal), or the
   * runtime and why. A connection's id is never shown: it means nothing to a person.
   */
  closedBy:
    | { kind: "other_browser"; label: string }
    | { kind: "other_client" }
    | { kind: "runtime"; reason: string }
    /** A UI request closed with `null`: another client dismissed it or the turn ended. */
    | { kind: "dismissed" };
}

export interface ResolvedLog {
  entries: Accessor<ResolvedEntry[]>;
  dismiss(key: number): void;
  /** This page sent the answer: its `*_resolved` needs no explaining. */
  answeredHere(requestId: string): void;
  /** The answer failed to send; if the request closes now, someone else closed it. */
  notAnsweredHere(requestId: string): void;
}

const MAX_ENTRIES = 6;
const MAX_REMEMBERED = 100;
/** `source` values the runtime uses when it closes a request itself (src/agent/runtime.ts). */
const BROWSER_SOURCE = "browser:";
const RUNTIME_REASONS = new Set(["aborted", "turn ended", "headless timeout", "headless"]);

export function createResolvedLog(room: ControlRoom): ResolvedLog {
  const [entries, setEntries] = createSignal<ResolvedEntry[]>([]);
  const requests = new Map<string, PermissionRequest | UiRequest>();
  const mine = new Set<string>();
  let next = 0;

  const remember = (request: PermissionRequest | UiRequest) => {
    requests.set(request.request_id, request);
    for (const id of requests.keys()) {
      if (requests.size <= MAX_REMEMBERED) break;
      requests.delete(id);
    }
  };

  const onEvent = (agentId: string, event: AgentEvent) => {
    switch (event.type) {
      case "sync":
        for (const request of event.pending_requests) remember(request);
        return;
      case "permission_request":
      case "ui_request":
        remember(event);
        return;
      case "permission_resolved":
      case "ui_resolved": {
        const request = requests.get(event.request_id);
        requests.delete(event.request_id);
        if (mine.delete(event.request_id) || request === undefined) return;
        const entry = describe(++next, agentId, request, event);
        setEntries((list) => [...list, entry].slice(-MAX_ENTRIES));
        return;
      }
      default:
        return;
    }
  };
  onCleanup(room.onAgentEvent(onEvent));

  return {
    entries,
    dismiss: (key) => setEntries((list) => list.filter((e) => e.key !== key)),
    answeredHere: (id) => {
      mine.add(id);
      if (mine.size > MAX_REMEMBERED) mine.delete(mine.values().next().value ?? id);
    },
    notAnsweredHere: (id) => mine.delete(id),
  };
}

function describe(
  key: number,
  agentId: string,
  request: PermissionRequest | UiRequest,
  event: Extract<AgentEvent, { type: "permission_resolved" | "ui_resolved" }>,
): ResolvedEntry {
  const base = { key, agentId, requestId: request.request_id };
  if (event.type === "permission_resolved") {
    const subject = request.type === "permission_request" ? request.tool_name : "permission";
    const choice =
      request.type === "permission_request" && event.choice_id !== undefined
        ? (request.choices?.find((c) => c.id === event.choice_id)?.label ?? event.choice_id)
        : undefined;
    const outcome = choice ?? event.decision?.replace("_", " ") ?? "answered";
    const source = event.source;
    if (source !== undefined && RUNTIME_REASONS.has(source)) {
      return { ...base, subject, outcome: "not run", closedBy: { kind: "runtime", reason: source } };
    }
    // The daemon names an enrolled browser `browser:<label>` (src/daemon/http/websocket.ts).
    const label = source?.startsWith(BROWSER_SOURCE) ? source.slice(BROWSER_SOURCE.length) : undefined;
    return {
      ...base,
      subject,
      outcome,
      closedBy: label ? { kind: "other_browser", label } : { kind: "other_client" },
    };
  }
  const subject =
    request.type === "ui_request" ? (request.title ?? request.message ?? request.kind) : "question";
  if (event.value === null || event.value === undefined) {
    return { ...base, subject, outcome: "no answer", closedBy: { kind: "dismissed" } };
  }
  return { ...base, subject, outcome: uiOutcome(event.value), closedBy: { kind: "other_client" } };
}

function uiOutcome(value: unknown): string {
  if (typeof value === "string") return `“${clip(value)}”`;
  if (Array.isArray(value)) return value.map((v) => `“${clip(String(v))}”`).join(", ");
  return "answered";
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
