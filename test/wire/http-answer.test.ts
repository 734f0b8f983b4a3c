/**
 * readHttpAnswer, which the web and the SDK use to read /enroll and /bootstrap: an answer of the
 * wrong shape is a failure naming the schema and the field, never a value of the wrong type; a
 * refusal's `{code, message}` is passed on as it is.
 */
import { describe, expect, test } from "bun:test";
import { BootstrapAnswerSchema, EnrollAnswerSchema } from "../../src/types/http-auth.ts";
import { readHttpAnswer } from "../../src/wire/http-answer.ts";

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("readHttpAnswer", () => {
  test("an answer of the route's schema is handed out typed", async () => {
    const read = await readHttpAnswer(json({ ticket: "t", expires_at: 5 }), BootstrapAnswerSchema);
    expect(read).toEqual({ ok: true, value: { ticket: "t", expires_at: 5 } });
  });

  test("a 200 of the wrong shape is an INTERNAL_ERROR naming the schema and the field", async () => {
    const cases: [body: unknown, field: string][] = [
      [{ ticket: 42, expires_at: 5 }, '"ticket"'],
      [{ ticket: "t" }, '"expires_at"'],
      [{ ticket: "", expires_at: 5 }, '"ticket"'],
      [[], '"(message)"'],
      [null, '"(message)"'],
    ];
    for (const [body, field] of cases) {
      const read = await readHttpAnswer(json(body), BootstrapAnswerSchema);
      expect(read.ok).toBe(false);
      if (read.ok) continue;
      expect(read.status).toBe(200);
      expect(read.code).toBe("INTERNAL_ERROR");
      expect(read.message).toContain(`does not match BootstrapAnswer (field ${field}: `);
    }
  });

  test("a 200 that is not JSON at all is a failure too", async () => {
    const read = await readHttpAnswer(new Response("<html>ok</html>"), EnrollAnswerSchema);
    expect(read).toMatchObject({ ok: false, status: 200, code: "INTERNAL_ERROR" });
    if (!read.ok) expect(read.message).toContain("does not match EnrollAnswer");
  });

  test("a refusal's {code, message} is passed on", async () => {
    const read = await readHttpAnswer(
      json({ code: "INVALID_REQUEST", message: 'EnrollRequest: field "code": …' }, 400),
      EnrollAnswerSchema,
    );
    expect(read).toEqual({
      ok: false,
      status: 400,
      code: "INVALID_REQUEST",
      message: 'EnrollRequest: field "code": …',
    });
  });

  test("a refusal that is not an HttpError (a proxy's page, an unknown code) falls back to the status", async () => {
    const page = await readHttpAnswer(
      new Response("<h1>Bad Gateway</h1>", { status: 502 }),
      EnrollAnswerSchema,
    );
    expect(page).toEqual({
      ok: false,
      status: 502,
      code: "INTERNAL_ERROR",
      message: "the daemon answered 502",
    });
    const unknown = await readHttpAnswer(json({ code: "NOPE", message: "x" }, 409), EnrollAnswerSchema);
    expect(unknown).toEqual({ ok: false, status: 409, code: "CONFLICT", message: "the daemon answered 409" });
    const denied = await readHttpAnswer(json({ message: "who?" }, 401), EnrollAnswerSchema);
    expect(denied).toMatchObject({ code: "PERMISSION_DENIED", message: "the daemon answered 401" });
  });
});
