/**
 * The base environment of a Shard process a test starts: clean (no developer's keys or
 * SHARD_HOME leak in) but for PATH, with SHARD_SANDBOX_POLICY=ask. Most tests use a `bash` call
 * as their example of a question to the person, which the default policy would let a sandboxed
 * command skip; test/sandbox/ tests the defaults themselves.
 */
export const CHILD_ENV: Readonly<Record<string, string>> = {
  PATH: process.env.PATH ?? "",
  SHARD_SANDBOX_POLICY: "ask",
};
