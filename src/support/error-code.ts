/** The Node-style code (`ENOENT`, `EACCES`, …) a thrown value carries, if any. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}
