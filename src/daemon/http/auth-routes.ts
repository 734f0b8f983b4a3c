/**
 * `POST /enroll` (code → session cookie) and `POST /bootstrap` (cookie → WS ticket), both
 * behind the exact Host and Origin checks, with bodies and answers of src/types/http-auth.ts.
 * Answers are never cached; no other method is served.
 */
import type { Context, Hono } from "hono";
import {
  type BootstrapAnswer,
  BootstrapRequestSchema,
  type EnrollAnswer,
  EnrollRequestSchema,
} from "../../types/http-auth.ts";
import type { AuthRefusal, BrowserAuth } from "../auth/browser-auth.ts";
import type { DaemonEnv } from "./daemon-env.ts";
import { httpError } from "./http-error.ts";
import { emptyBodyIsEmptyObject, jsonBodyLimit, jsonValidator, requireJsonType } from "./json-validator.ts";
import { requireOrigin } from "./origin-check.ts";
import type { WebPolicy } from "./web-policy.ts";

/** A code and a label fit with room to spare; `/bootstrap` takes `{}`. */
const MAX_BODY_BYTES = { "/enroll": 4096, "/bootstrap": 1024 };
const MAX_LABEL_CHARS = 64;

export function mountAuthRoutes(
  app: Hono<DaemonEnv>,
  auth: BrowserAuth,
  policy: () => WebPolicy | undefined,
): void {
  for (const [path, maxBytes] of Object.entries(MAX_BODY_BYTES)) {
    app.use(path, async (c, next) => {
      c.header("Cache-Control", "no-store");
      if (c.req.method !== "POST") {
        c.header("Allow", "POST");
        return httpError(c, 405, "INVALID_REQUEST", `${path} takes POST only`);
      }
      await next();
    });
    app.use(path, requireOrigin(policy));
    app.use(path, jsonBodyLimit(maxBytes));
  }

  app.post("/enroll", requireJsonType, jsonValidator(EnrollRequestSchema), async (c) => {
    const request = c.req.valid("json");
    // An https page must get the Secure cookie, and only an https request can set one: a page
    // whose scheme differs from the request's (a proxy not sending X-Forwarded-Proto) is refused.
    const pageScheme = (c.req.header("origin") ?? "").startsWith("https:") ? "https" : "http";
    if (pageScheme !== c.get("scheme")) {
      return httpError(
        c,
        403,
        "PERMISSION_DENIED",
        `the page is ${pageScheme} but this request reached the daemon as ${c.get("scheme")}; the proxy must send X-Forwarded-Proto and be the --trust-proxy peer`,
      );
    }
    const label = request.label ?? c.req.header("user-agent") ?? "";
    // The peer address, never X-Forwarded-For: behind a proxy every browser shares the proxy's.
    const source = c.env.server.requestIP(c.req.raw)?.address ?? "unknown";
    const enrolled = auth.enroll(request.code, cleanLabel(label), c.get("scheme"), source);
    if (!enrolled.ok) return refusal(c, enrolled);
    c.header("Set-Cookie", enrolled.setCookie);
    const answer: EnrollAnswer = { browser_id: enrolled.browserId };
    return c.json(answer);
  });

  app.post("/bootstrap", emptyBodyIsEmptyObject, jsonValidator(BootstrapRequestSchema), (c) => {
    // requireOrigin has checked it: the ticket is bound to this exact Origin.
    const origin = c.req.header("origin") ?? "";
    const issued = auth.bootstrap(c.req.header("cookie"), c.get("scheme"), origin);
    if (!issued.ok) return refusal(c, issued);
    const answer: BootstrapAnswer = { ticket: issued.ticket, expires_at: issued.expires_at };
    return c.json(answer);
  });
}

function refusal(c: Context<DaemonEnv>, refused: AuthRefusal) {
  if (refused.retryAfterS !== undefined) c.header("Retry-After", String(refused.retryAfterS));
  return httpError(
    c,
    refused.status,
    refused.status === 409 ? "CONFLICT" : refused.status === 503 ? "INTERNAL_ERROR" : "PERMISSION_DENIED",
    refused.message,
  );
}

/** A printable, short label (it is shown by `shard auth list`, so no control characters). */
function cleanLabel(label: string): string {
  const printable = label.replace(/[\p{Cc}\p{Cf}]/gu, "").trim();
  return Array.from(printable).slice(0, MAX_LABEL_CHARS).join("") || "browser";
}
