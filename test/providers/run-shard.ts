import { resolve } from "node:path";
import { CHILD_ENV } from "../support/child-env.ts";
import { makeTempDir } from "../support/temp-dirs.ts";

const SHARD_MAIN = resolve(import.meta.dir, "../../src/cli/main.ts");

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  home: string;
}

export function freshHome(): string {
  return makeTempDir("shard-providers-cli-");
}

export async function runShard(
  args: string[],
  env: Record<string, string> = {},
  home: string = freshHome(),
): Promise<Ran> {
  const proc = Bun.spawn([process.execPath, SHARD_MAIN, ...args], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...CHILD_ENV, HOME: home, SHARD_HOME: home, ...env },
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr, home };
}
