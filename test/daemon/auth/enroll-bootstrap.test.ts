/**
 * POST /enroll (one-time code → session cookie) and POST /bootstrap (cookie → WS ticket),
 * docs/protocol.md §3.1. Negative first; expiry uses the daemon's injectable clock.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ENROLLMENT_CODE_TTL_MS,
  FAILED_REDEMPTION_WINDOW_MS,
  MAX_FAILED_REDEMPTIONS,
} from "../../../src/daemon/auth/enrollment-codes.ts";
import { COOKIE_MAX_AGE_S } from "../../../src/daemon/auth/session-cookie.ts";
import { HttpErrorSchema } from "../../../src/types/errors.ts";
import { schemaGuard } from "../../../src/wire/validate.ts";
import { AuthDaemon, cookieOf } from "./auth-daemon.ts";
import { type RawResponse, rawRequest } from "./raw-http.ts";

let now = Date.now();
let d: AuthDaemon;
beforeAll(async () => {
  d = await AuthDaemon.start({ clock: () => now });
});
afterAll(() => d.stop());

const asHttpError = schemaGuard(HttpErrorSchema);

/** The refusal's `{ code, message }` body; anything else fails the test. */
function refusalOf(res: RawResponse) {
  const body = asHttpError(JSON.parse(res.body));
  if (!body) throw new Error(`not an HttpError body: ${res.body}`);
  return body;
}

function postRaw(path: string, body: string, headers: Record<string, string> = {}) {
  return rawRequest(d.port, {
    method: "POST",
    path,
    headers: { Host: d.host, Origin: d.origin, "Content-Type": "application/json", ...headers },
    body,
  });
}

describe("POST /enroll", () => {
  test("a code works once: the second use is refused", async () => {
    const code = await d.mintCode();
    expect((await d.enroll(code)).status).toBe(200);
    const again = await d.enroll(code);
    expect(again.status).toBe(401);
    expect(again.header("set-cookie")).toBeUndefined();
    expect(JSON.parse(again.body)).toMatchObject({ code: "PERMISSION_DENIED" });
    expect(JSON.parse(again.body).message).toContain("shard auth enroll");
  });

  test("a code expires after 10 minutes", async () => {
    const code = await d.mintCode();
    now += ENROLLMENT_CODE_TTL_MS;
    expect((await d.enroll(code)).status).toBe(401);
    const fresh = await d.mintCode();
    now += ENROLLMENT_CODE_TTL_MS - 1;
    expect((await d.enroll(fresh)).status).toBe(200);
  });

  test("GET, a non-JSON body and a body without a code are refused", async () => {
    const code = await d.mintCode();
    expect((await d.enroll(code, {}, "GET")).status).toBe(405);
    const form = await d.enroll(code, { "Content-Type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    const wrong = await rawRequest(d.port, {
      method: "POST",
      path: "/enroll",
      headers: { Host: d.host, Origin: d.origin, "Content-Type": "application/json" },
      body: JSON.stringify({ kode: code }),
    });
    expect(wrong.status).toBe(400);
    expect((await d.enroll(code)).status).toBe(200);
  });

  test("the cookie is HttpOnly, SameSite=Strict, Path=/, not Secure over http, and the answer is not cached", async () => {
    const res = await d.enroll(await d.mintCode());
    const cookie = res.header("set-cookie") ?? "";
    expect(cookie).toMatch(/^shard_session=[A-Za-z0-9_-]{43}; /);
    const attributes = cookie.split("; ").slice(1);
    expect(attributes).toContain("HttpOnly");
    expect(attributes).toContain("SameSite=Strict");
    expect(attributes).toContain("Path=/");
    expect(attributes).not.toContain("Secure");
    expect(attributes.some((a) => a.startsWith("Domain"))).toBe(false);
    expect(res.header("cache-control")).toBe("no-store");
  });

  test("a label is cut to 64 printable characters (it is shown on the terminal)", async () => {
    const res = await rawRequest(d.port, {
      method: "POST",
      path: "/enroll",
      headers: { Host: d.host, Origin: d.origin, "Content-Type": "application/json" },
      body: JSON.stringify({
        code: await d.mintCode(),
        label: `\u001b[31mred\u0007\u202e${"x".repeat(200)}`,
      }),
    });
    const browserId = JSON.parse(res.body).browser_id;
    const { browsers } = await (await d.unix()).ok({ type: "auth.list" });
    const label: string = browsers.find((b: { id: string }) => b.id === browserId).label;
    expect(label).toBe(`[31mred${"x".repeat(57)}`);
  });

  test("failed attempts are rate-limited: past the limit even a right code of that time waits", async () => {
    const good = await d.mintCode();
    for (let i = 0; i < MAX_FAILED_REDEMPTIONS; i++) {
      expect((await d.enroll(`wrong-${i}`)).status).toBe(401);
    }
    const limited = await d.enroll(good);
    expect(limited.status).toBe(429);
    expect(Number(limited.header("retry-after"))).toBeGreaterThan(0);
    // A flood while locked adds nothing to the log (the lock was logged once, when it began).
    const logLines = () => readFileSync(join(d.home, "logs", "daemon.log"), "utf8").split("\n").length;
    const before = logLines();
    for (let i = 0; i < 20; i++) expect((await d.enroll(`flood-${i}`)).status).toBe(429);
    expect(logLines()).toBe(before);
    expect(readFileSync(join(d.home, "logs", "daemon.log"), "utf8").match(/enrollment locked/g)).toHaveLength(
      1,
    );
    expect(JSON.parse(limited.body).message).toContain("shard auth enroll");
    now += 61_000;
    expect((await d.enroll(good)).status).toBe(200);
  });

  test("a flood of wrong codes cannot lock the owner out: a code minted after it began enrolls at once", async () => {
    const before = await d.mintCode();
    for (let i = 0; i < MAX_FAILED_REDEMPTIONS; i++) await d.enroll(`wrong-${i}`);
    // The attacker keeps going (another local user shares 127.0.0.1 with the browser).
    const flood = Array.from({ length: 10 }, (_, i) => d.enroll(`flood-${i}`));
    const fresh = await d.mintCode();
    expect((await d.enroll(fresh)).status).toBe(200);
    for (const res of await Promise.all(flood)) expect(res.status).toBe(429);
    expect((await d.enroll("after-the-fresh-code")).status).toBe(429);
    // The code that was open while the failures came in waits the lock out.
    expect((await d.enroll(before)).status).toBe(429);
    now += 61_000;
    expect((await d.enroll(before)).status).toBe(200);
  });
});

describe("an attack that keeps renewing the enrollment lock", () => {
  test("wrong codes from 127.0.0.1 and spread over 127.0.0.x for minutes: a code minted after it began enrolls", async () => {
    // A quiet window first: the attacks of the tests above are over.
    now += 2 * FAILED_REDEMPTION_WINDOW_MS;
    const wrongFrom = (localAddress: string) =>
      rawRequest(d.port, {
        method: "POST",
        path: "/enroll",
        headers: { Host: d.host, Origin: d.origin, "Content-Type": "application/json" },
        body: JSON.stringify({ code: "A".repeat(43) }),
        localAddress,
      });
    const before = await d.mintCode();
    let spread = 0;
    const statuses = new Set<number>();
    // One wrong code from the owner's address and one from the next 127.0.0.x, every 3 s:
    // the owner's address and then every address are locked again as soon as a lock ends.
    const attack = async () => {
      for (const source of ["127.0.0.1", `127.0.0.${2 + (spread++ % 250)}`])
        statuses.add((await wrongFrom(source)).status);
      now += 3_000;
    };
    while (!statuses.has(429)) await attack();
    const fresh = await d.mintCode();
    statuses.clear();
    // 8.5 minutes of it, the code's lifetime being 10.
    for (let step = 0; step < 170; step++) await attack();
    expect([...statuses].sort()).toEqual([401, 429]);
    await wrongFrom("127.0.0.1");
    expect((await wrongFrom("127.0.0.1")).status).toBe(429);
    expect((await d.enroll(before)).status).toBe(429);
    expect((await d.enroll(fresh)).status).toBe(200);
  });
});

describe("POST /enroll checks its body against EnrollRequest", () => {
  test("wrong types, missing fields and extra fields are 400s naming the field; the code is not spent", async () => {
    const code = await d.mintCode();
    const cases: [body: unknown, field: string][] = [
      [{ code: 42 }, '"code"'],
      [{ code, label: 7 }, '"label"'],
      [{}, '"code"'],
      [{ label: "no code" }, '"code"'],
      [{ code: "" }, '"code"'],
      [{ code, admin: true }, '"admin"'],
      [[code], '"(message)"'],
      [null, '"(message)"'],
      [code, '"(message)"'],
    ];
    for (const [body, field] of cases) {
      const res = await postRaw("/enroll", JSON.stringify(body));
      expect(res.status).toBe(400);
      expect(res.header("set-cookie")).toBeUndefined();
      const refusal = refusalOf(res);
      expect(refusal.code).toBe("INVALID_REQUEST");
      expect(refusal.message).toStartWith(`EnrollRequest: field ${field}: `);
    }
    expect(refusalOf(await postRaw("/enroll", "{}")).message).toContain("(missing)");
    // None of them was a redemption attempt: the code still enrolls.
    expect((await d.enroll(code)).status).toBe(200);
  });

  test("malformed JSON is a 400, not a daemon failure", async () => {
    for (const body of ['{"code":', "", "{code: 1}", "\u0000"]) {
      const res = await postRaw("/enroll", body);
      expect(res.status).toBe(400);
      expect(refusalOf(res).code).toBe("INVALID_REQUEST");
    }
    const log = readFileSync(join(d.home, "logs", "daemon.log"), "utf8");
    expect(log).not.toContain("http POST /enroll");
  });

  test("a body over 4 KiB is a 413, announced or streamed, and the daemon carries on", async () => {
    const code = await d.mintCode();
    const big = JSON.stringify({ code, label: "x".repeat(4096) });
    const announced = await postRaw("/enroll", big);
    expect(announced.status).toBe(413);
    expect(refusalOf(announced)).toEqual({
      code: "INVALID_REQUEST",
      message: "the body is larger than 4096 bytes",
    });
    // Chunked, with no Content-Length: counted as it arrives.
    const chunk = new TextEncoder().encode(" ".repeat(1024));
    let sent = 0;
    const streamed = await fetch(`${d.origin}/enroll`, {
      method: "POST",
      headers: { Origin: d.origin, "Content-Type": "application/json" },
      body: new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 64) controller.enqueue(chunk);
          else controller.close();
        },
      }),
    });
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({
      code: "INVALID_REQUEST",
      message: "the body is larger than 4096 bytes",
    });
    expect((await d.enroll(code)).status).toBe(200);
  });
});

describe("POST /bootstrap checks its body against BootstrapRequest", () => {
  test("a JSON body must be {}: anything else is a 400 naming the field, with no ticket", async () => {
    const cookie = await d.enrolledCookie();
    for (const [body, field] of [
      ['{"ticket":"mine"}', '"ticket"'],
      ["[]", '"(message)"'],
      ['"x"', '"(message)"'],
    ] as const) {
      const res = await postRaw("/bootstrap", body, { Cookie: cookie });
      expect(res.status).toBe(400);
      expect(res.body).not.toContain('"ticket":"');
      expect(refusalOf(res).message).toStartWith(`BootstrapRequest: field ${field}: `);
    }
    expect((await postRaw("/bootstrap", "{", { Cookie: cookie })).status).toBe(400);
    expect((await postRaw("/bootstrap", "{}", { Cookie: cookie })).status).toBe(200);
    // An empty body is {} whatever its Content-Type says, as before the schemas.
    expect((await postRaw("/bootstrap", "", { Cookie: cookie })).status).toBe(200);
    const noBody = await rawRequest(d.port, {
      method: "POST",
      path: "/bootstrap",
      headers: { Host: d.host, Origin: d.origin, "Content-Type": "application/json", Cookie: cookie },
    });
    expect(noBody.status).toBe(200);
    expect((await d.bootstrap(cookie)).status).toBe(200);
  });

  test("a body over 1 KiB is a 413", async () => {
    const cookie = await d.enrolledCookie();
    const res = await postRaw("/bootstrap", `{${" ".repeat(1024)}}`, { Cookie: cookie });
    expect(res.status).toBe(413);
    expect(refusalOf(res).message).toBe("the body is larger than 1024 bytes");
    expect((await d.bootstrap(cookie)).status).toBe(200);
  });
});

describe("POST /bootstrap", () => {
  test("without a cookie, or with an unknown or malformed one: 401, no ticket", async () => {
    for (const cookie of [undefined, `shard_session=${"A".repeat(43)}`, "shard_session=short", "other=1"]) {
      const res = await d.bootstrap(cookie);
      expect(res.status).toBe(401);
      expect(res.body).not.toContain('"ticket"');
    }
  });

  test("GET is refused", async () => {
    const cookie = await d.enrolledCookie();
    const res = await d.bootstrap(cookie, {}, "GET");
    expect(res.status).toBe(405);
    expect(res.body).not.toContain('"ticket"');
  });

  test("a Secure (__Host-) cookie over plain http is refused", async () => {
    const value = (await d.enrolledCookie()).split("=")[1];
    const res = await d.bootstrap(`__Host-shard_session=${value}`);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).message).toContain("plain http");
  });

  test("two cookies of our name are refused rather than guessed between", async () => {
    const a = await d.enrolledCookie();
    const b = await d.enrolledCookie();
    expect((await d.bootstrap(`${a}; ${b}`)).status).toBe(401);
  });

  test("a revoked browser's cookie gets no ticket", async () => {
    const res = await d.enroll(await d.mintCode());
    const cookie = cookieOf(res);
    const browserId = JSON.parse(res.body).browser_id;
    expect((await d.bootstrap(cookie)).status).toBe(200);
    const unix = await d.unix();
    await unix.ok({ type: "auth.revoke", browser_id: browserId });
    const after = await d.bootstrap(cookie);
    expect(after.status).toBe(401);
    expect(JSON.parse(after.body).message).toContain("revoked");
  });

  test("a session ends when its cookie's Max-Age does", async () => {
    const cookie = await d.enrolledCookie();
    now += COOKIE_MAX_AGE_S * 1000 - 1;
    expect((await d.bootstrap(cookie)).status).toBe(200);
    now += 1;
    const expired = await d.bootstrap(cookie);
    expect(expired.status).toBe(401);
    expect(JSON.parse(expired.body).message).toContain("expired");
  });

  test("the right cookie, Origin and Host get a ticket of at most 30 s, not cached", async () => {
    const res = await d.bootstrap(await d.enrolledCookie());
    expect(res.status).toBe(200);
    expect(res.header("cache-control")).toBe("no-store");
    const body = JSON.parse(res.body);
    expect(body.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.expires_at - now).toBeLessThanOrEqual(30_000);
    expect(body.expires_at).toBeGreaterThan(now);
  });
});
