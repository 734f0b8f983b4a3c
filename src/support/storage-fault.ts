/**
 * A durable write that failed because of the disk, not Shard (a full disk, a quota, a read-only
 * mount), in words a client can act on. Never a path: the error's own message names the file.
 */
const CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: "the disk that holds SHARD_HOME is full (ENOSPC); free some space",
  EDQUOT: "the disk quota of SHARD_HOME is used up (EDQUOT); free some space",
  EROFS: "SHARD_HOME is on a read-only filesystem (EROFS)",
  EIO: "the disk that holds SHARD_HOME reported an I/O error (EIO)",
};

export function storageFault(error: unknown): string | undefined {
  if (!(error instanceof Error) || !("code" in error) || typeof error.code !== "string") return undefined;
  return CAUSES[error.code];
}
