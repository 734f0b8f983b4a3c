/**
 * One-click enrollment: the printed URL carries the code in its fragment (`#enroll=<code>`),
 * which never reaches a server log. The page posts it once and removes it from the address
 * bar and history at once, so a reload or a shared screenshot never shows it again.
 */
import { EnrollAnswerSchema, type EnrollRequest } from "../../../src/types/http-auth.ts";
import { postJson } from "./http-json.ts";

export type EnrollOutcome = { kind: "none" } | { kind: "enrolled" } | { kind: "refused"; message: string };

export function takeEnrollmentCode(): string | undefined {
  const match = /^#enroll=([A-Za-z0-9_-]{1,256})$/.exec(window.location.hash);
  if (window.location.hash.startsWith("#enroll=")) {
    history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  return match?.[1];
}

export async function enrollFromUrl(): Promise<EnrollOutcome> {
  const code = takeEnrollmentCode();
  if (code === undefined) return { kind: "none" };
  const label = `${navigator.platform || "browser"} · ${new Date().toISOString().slice(0, 10)}`;
  const request: EnrollRequest = { code, label };
  const result = await postJson("/enroll", request, EnrollAnswerSchema);
  return result.ok ? { kind: "enrolled" } : { kind: "refused", message: result.message };
}
