/**
 * The files a `restore_checkpoint` refused with `CONFLICT` names in `data.conflicts`
 * (docs/protocol-additions.md §21), or undefined for a CONFLICT of another kind (a turn running).
 */
export function restoreConflicts(data: unknown): string[] | undefined {
  if (typeof data !== "object" || data === null || !("conflicts" in data)) return undefined;
  const { conflicts } = data;
  if (!Array.isArray(conflicts) || !conflicts.every((p) => typeof p === "string")) return undefined;
  return conflicts;
}
