/**
 * Browser-enrollment commands (our addition, docs/protocol-additions.md §10). Daemon-level
 * request/response, answered on the unix socket only: local trust (docs/protocol.md §3.3) is what
 * lets a caller mint codes and revoke browsers. Over the WebSocket they answer PERMISSION_DENIED.
 */
import { type Static, Type } from "@sinclair/typebox";
import { requiredCommandId } from "./envelope.ts";

export const AuthEnrollCommandSchema = Type.Object(
  { type: Type.Literal("auth.enroll"), id: requiredCommandId },
  { $id: "AuthEnrollCommand" },
);
export type AuthEnrollCommand = Static<typeof AuthEnrollCommandSchema>;

/** A fresh one-time code and the URLs that carry it in their fragment (never in a path or query). */
export const AuthEnrollResultSchema = Type.Object(
  {
    /**
     * The URL to open: `http://127.0.0.1:<port>/#enroll=<code>` in loopback mode, the public
     * origin (`<allowed origin>/#enroll=<code>`) in remote mode.
     */
    url: Type.String(),
    /** Epoch milliseconds; single use, 10 minutes. */
    expires_at: Type.Number(),
  },
  { $id: "AuthEnrollResult" },
);
export type AuthEnrollResult = Static<typeof AuthEnrollResultSchema>;

export const AuthListCommandSchema = Type.Object(
  { type: Type.Literal("auth.list"), id: requiredCommandId },
  { $id: "AuthListCommand" },
);
export type AuthListCommand = Static<typeof AuthListCommandSchema>;

/** One enrolled browser (a principal). Never carries a credential or its hash. */
export const BrowserInfoSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    label: Type.String(),
    /** Epoch milliseconds. */
    created_at: Type.Number(),
    /** Epoch milliseconds of the last bootstrap (or the enrollment). */
    last_seen_at: Type.Number(),
  },
  { $id: "BrowserInfo" },
);
export type BrowserInfo = Static<typeof BrowserInfoSchema>;

/** Oldest enrollment first. */
export const AuthListResultSchema = Type.Object(
  { browsers: Type.Array(BrowserInfoSchema) },
  { $id: "AuthListResult" },
);
export type AuthListResult = Static<typeof AuthListResultSchema>;

export const AuthRevokeCommandSchema = Type.Object(
  {
    type: Type.Literal("auth.revoke"),
    id: requiredCommandId,
    browser_id: Type.String({ minLength: 1 }),
  },
  { $id: "AuthRevokeCommand" },
);
export type AuthRevokeCommand = Static<typeof AuthRevokeCommandSchema>;

export const AuthRevokeResultSchema = Type.Object(
  {
    browser_id: Type.String(),
    /** WebSocket connections of that browser that were closed. */
    closed_connections: Type.Integer({ minimum: 0 }),
  },
  { $id: "AuthRevokeResult" },
);
export type AuthRevokeResult = Static<typeof AuthRevokeResultSchema>;
