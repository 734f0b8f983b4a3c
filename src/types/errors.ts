/** Error model (PROTOCOL §8): the closed code registry and the `{code, message, data?}` shape. */
import { type Static, Type } from "@sinclair/typebox";

/** Every code the server may put on the wire. Extending the registry means adding here. */
export const ERROR_CODES = [
  "INVALID_REQUEST",
  "NOT_FOUND",
  "NOT_ATTACHED",
  "PERMISSION_DENIED",
  "PROTOCOL_ERROR",
  "TIMEOUT",
  "RUNTIME_START_FAILED",
  "SESSION_CORRUPT",
  "INTERNAL_ERROR",
  "PROVIDER_ERROR",
  "TOOL_ERROR",
  "CONFLICT",
] as const;

export const ErrorCodeSchema = Type.Union(
  ERROR_CODES.map((code) => Type.Literal(code)),
  { $id: "ErrorCode" },
);
export type ErrorCode = Static<typeof ErrorCodeSchema>;

/** Command error carried by a failed `response` (PROTOCOL §9.3). */
export const WireErrorSchema = Type.Object(
  { code: ErrorCodeSchema, message: Type.String(), data: Type.Optional(Type.Unknown()) },
  { $id: "WireError" },
);
export type WireError = Static<typeof WireErrorSchema>;

/** Every refusal of the daemon's HTTP routes (`/enroll`, `/bootstrap`, `/ws`, 404s): the body. */
export const HttpErrorSchema = Type.Object(
  { code: ErrorCodeSchema, message: Type.String() },
  { $id: "HttpError" },
);
export type HttpError = Static<typeof HttpErrorSchema>;
