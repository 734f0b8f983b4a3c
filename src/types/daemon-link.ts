/**
 * The daemon link over the runtime's own stdio (protocol-additions §27, docs/placements.md): a
 * runtime started with `--daemon-link stdio` reaches the daemon for its `subagent` tool by
 * writing `daemon_request` lines on stdout; the daemon answers with `daemon_response` on the
 * runtime's stdin, and the runtime withdraws a question with `daemon_cancel` when the tool call
 * is aborted or times out. The daemon takes each request as it takes a command on an ssh
 * placement's scoped socket (src/daemon/agent-scope.ts): only that agent's own `subagent.*`.
 */
import { type Static, Type } from "@sinclair/typebox";
import { eventSeq, routingAgentId } from "./envelope.ts";
import { ResponseSchema } from "./response.ts";

/** The most a request or an answer may weigh, serialized (1 MiB); larger ones are refused. */
export const MAX_DAEMON_LINK_BYTES = 1024 * 1024;
/** Requests open at once on one link; past it the runtime (and the daemon) refuse more. */
export const MAX_DAEMON_LINK_PENDING = 16;

/** The runtime's id of one request on its link; the answer and the cancel repeat it. */
const linkRequestId = Type.String({ minLength: 1, maxLength: 100 });

export const DaemonRequestEventSchema = Type.Object(
  {
    type: Type.Literal("daemon_request"),
    agent_id: routingAgentId,
    seq: eventSeq,
    id: linkRequestId,
    /**
     * A daemon command as a client writes it. The daemon checks it against the schema of its
     * own `type` and the link's scope; its `id` is replaced by the link's.
     */
    request: Type.Object(
      { type: Type.String({ minLength: 1, maxLength: 100 }) },
      { additionalProperties: true },
    ),
  },
  { $id: "DaemonRequestEvent" },
);
export type DaemonRequestEvent = Static<typeof DaemonRequestEventSchema>;

export const DaemonCancelEventSchema = Type.Object(
  {
    type: Type.Literal("daemon_cancel"),
    agent_id: routingAgentId,
    seq: eventSeq,
    id: linkRequestId,
  },
  { $id: "DaemonCancelEvent" },
);
export type DaemonCancelEvent = Static<typeof DaemonCancelEventSchema>;

/**
 * The daemon's answer to one `daemon_request`: its `id` is the request's, and the runtime
 * acknowledges it with a `response` of that id (an unknown id, an answer to another command or
 * an oversized one is refused there, and never reaches the tool).
 */
export const DaemonResponseCommandSchema = Type.Object(
  {
    type: Type.Literal("daemon_response"),
    id: linkRequestId,
    agent_id: Type.Optional(Type.String({ minLength: 1 })),
    response: ResponseSchema,
  },
  { $id: "DaemonResponseCommand" },
);
export type DaemonResponseCommand = Static<typeof DaemonResponseCommandSchema>;

export const DaemonResponseResultSchema = Type.Object({}, { $id: "DaemonResponseResult" });
export type DaemonResponseResult = Static<typeof DaemonResponseResultSchema>;
