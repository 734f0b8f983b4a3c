/**
 * Bodies of the daemon's browser-authentication routes (docs/auth.md, docs/protocol-additions.md
 * §10.1). The daemon validates each request body against its schema before the route runs, and
 * the web and the SDK check each answer against its schema before they use it. A refusal is an
 * `HttpError` (src/types/errors.ts).
 */
import { type Static, Type } from "@sinclair/typebox";

/** `POST /enroll`: the one-time code from the URL's `#enroll=` fragment. */
export const EnrollRequestSchema = Type.Object(
  {
    code: Type.String({ minLength: 1 }),
    /** Shown by `shard auth list`; the daemon keeps 64 printable characters (default: the User-Agent). */
    label: Type.Optional(Type.String()),
  },
  { $id: "EnrollRequest", additionalProperties: false },
);
export type EnrollRequest = Static<typeof EnrollRequestSchema>;

/** The answer to a good code; the session cookie comes in its `Set-Cookie`. */
export const EnrollAnswerSchema = Type.Object(
  {
    /** The enrolled browser, `brw_…` (the id `auth.list` and `auth.revoke` use). */
    browser_id: Type.String({ minLength: 1 }),
  },
  { $id: "EnrollAnswer" },
);
export type EnrollAnswer = Static<typeof EnrollAnswerSchema>;

/**
 * `POST /bootstrap`: nothing but the session cookie is needed, so a JSON body is `{}`. A body
 * sent without a JSON Content-Type (`curl -X POST`) is read as `{}`.
 */
export const BootstrapRequestSchema = Type.Object(
  {},
  { $id: "BootstrapRequest", additionalProperties: false },
);
export type BootstrapRequest = Static<typeof BootstrapRequestSchema>;

/** A single-use WebSocket ticket, bound to the session and the request's Origin. */
export const BootstrapAnswerSchema = Type.Object(
  {
    /** Offered as the `shard.ticket.<ticket>` subprotocol of the upgrade. */
    ticket: Type.String({ minLength: 1 }),
    /** Epoch milliseconds; at most 30 s after issue. */
    expires_at: Type.Number(),
  },
  { $id: "BootstrapAnswer" },
);
export type BootstrapAnswer = Static<typeof BootstrapAnswerSchema>;
