/**
 * `POST /enroll` (code → session cookie) and `POST /bootstrap` (cookie → WS ticket), both
 * behind the exact Host and Origin checks. Answers are never cached; no other method is served.
 */
import type { Context, Hono } from "hono";
import type { AuthRefusal, BrowserAuth } from "../auth/browser-auth.ts";
import type { DaemonEnv } from "./daemon-env.ts";
import { httpError } from "./http-error.ts";
import { readJsonBody } from "./json-body.ts";
import { requireOrigin } from "./origin-check.ts";
import type { WebPolicy } from "./web-policy.ts";

const MAX_ENROLL_BODY_BYTES = 4096;
const MAX_LABEL_CHARS = 64;

export function mountAuthRoutes(
  app: Hono<DaemonEnv>,
  auth: BrowserAuth,
  policy: () => WebPolicy | undefined,
): void {
  for (const path of ["/enroll", "/bootstrap"]) {
    app.use(path, async (c, next) => {
      c.header("Cache-Control", "no-store");
      if (c.req.method !== "POST") {
        c.header("Allow", "POST");
        return httpError(c, 405, "INVALID_REQUEST", `${path} takes POST only`);
      }
      await next();
    });
    app.use(path, requireOrigin(policy));
  }

  app.post("/enroll", async (c) => {
    const body = await readJsonBody(c.req.raw, MAX_ENROLL_BODY_BYTES);
    if (!body.ok) return httpError(c, body.status, "INVALID_REQUEST", body.message);
    const value = body.value;
    if (typeof value !== "object" || value === null || !("code" in value) || typeof value.code !== "string") {
      return httpError(c, 400, "INVALID_REQUEST", 'send { "code": "<the code after #enroll= in the URL>" }');
    }
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
    const label =
      "label" in value && typeof value.label === "string" ? value.label : (c.req.header("user-agent") ?? "");
    // The peer address, never X-Forwarded-For: behind a proxy every browser shares the proxy's.
    const source = c.env.server.requestIP(c.req.raw)?.address ?? "unknown";
    const enrolled = auth.enroll(value.code, cleanLabel(label), c.get("scheme"), source);
    if (!enrolled.ok) return refusal(c, enrolled);
    c.header("Set-Cookie", enrolled.setCookie);
    return c.json({ browser_id: enrolled.browserId });
  });

  app.post("/bootstrap", (c) => {
    // requireOrigin has checked it: the ticket is bound to this exact Origin.
    const origin = c.req.header("origin") ?? "";
    const issued = auth.bootstrap(c.req.header("cookie"), c.get("scheme"), origin);
    if (!issued.ok) return refusal(c, issued);
    return c.json({ ticket: issued.ticket, expires_at: issued.expires_at });
  });
}

function refusal(c: Context<DaemonEnv>, refused: AuthRefusal) {
  if (refused.retryAfterS !== undefined) c.header("Retry-After", String(refused.retryAfterS));
  return httpError(
    c,
    refused.status,
    refused.status === 409 ? "CONFLICT" : "PERMISSION_DENIED",
    refused.message,
  );
}

/** A printable, short label (it is shown by `shard auth list`, so no control characters). */
function cleanLabel(label: string): string {
  const printable = label.replace(/[\p{Cc}\p{Cf}]/gu, "").trim();
  return Array.from(printable).slice(0, MAX_LABEL_CHARS).join("") || "browser";
}
