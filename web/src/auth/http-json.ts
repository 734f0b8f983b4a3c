/** POSTs JSON to the daemon (same origin, cookie included) and reads its `{code, message}` refusals. */
export type PostResult<T> = { ok: true; value: T } | { ok: false; status: number; message: string };

export async function postJson<T>(path: string, body: unknown): Promise<PostResult<T>> {
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
    return { ok: false, status: 0, message: "the daemon cannot be reached" };
  }
  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    parsed = undefined;
  }
  if (response.ok) return { ok: true, value: parsed as T };
  const message =
    typeof parsed === "object" && parsed !== null && "message" in parsed && typeof parsed.message === "string"
      ? parsed.message
      : `the daemon answered ${response.status}`;
  return { ok: false, status: response.status, message };
}
