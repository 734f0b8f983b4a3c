/** POSTs JSON to the daemon (same origin, cookie included) and checks its answer (src/wire/http-answer.ts). */
import type { Static, TSchema } from "@sinclair/typebox";
import { type HttpAnswer, readHttpAnswer } from "../../../src/wire/http-answer.ts";

export async function postJson<S extends TSchema>(
  path: string,
  body: object,
  answer: S,
): Promise<HttpAnswer<Static<S>>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    return { ok: false, status: 0, code: "INTERNAL_ERROR", message: "the daemon cannot be reached" };
  }
  return readHttpAnswer(response, answer);
}
