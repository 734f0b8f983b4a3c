/** A fresh $SHARD_HOME and project per test; `restart()` is a new gate on the same home. */
import { afterAll } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import { grantFilePath } from "../../src/permissions/grant-store.ts";
import { tempDir } from "./fixtures.ts";

function grantProject(cleanups: (() => void)[]) {
  const root = tempDir("grants");
  cleanups.push(root.cleanup);
  const home = join(root.path, "shard-home");
  const proj = join(root.path, "proj");
  const outside = join(root.path, "outside");
  mkdirSync(proj);
  mkdirSync(outside);
  const restart = () => createPermissionGate({ home, cwd: proj });
  const grantFile = grantFilePath(home, proj);
  const writeGrantFile = (content: unknown) => {
    mkdirSync(join(home, "grants"), { recursive: true });
    // Private, as the runtime writes it: a file others can access is refused outright.
    writeFileSync(grantFile, typeof content === "string" ? content : JSON.stringify(content), {
      mode: 0o600,
    });
    chmodSync(grantFile, 0o600);
  };
  return { home, proj, outside, restart, grantFile, writeGrantFile };
}

/** Registers removal of every project it makes after the file's tests; returns the maker. */
export function useGrantProjects(): () => ReturnType<typeof grantProject> {
  const cleanups: (() => void)[] = [];
  afterAll(() => {
    for (const cleanup of cleanups) cleanup();
  });
  return () => grantProject(cleanups);
}

export const deny = { kind: "decision", decision: "deny" } as const;
export const bash = (command: string) => ({ command });
