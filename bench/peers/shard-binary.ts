/** The compiled `shard` binary, built with the package's own `build:binary` script into a temp folder. */
import { dirname, join, resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { builtWebDir } from "../../test/web/support/web-build.ts";
import { benchTempDir } from "../support/bench-home.ts";

const REPO = resolve(import.meta.dir, "..", "..");

/** The build's command line with its output and embedded web client redirected (pure). */
export function buildCommand(script: string, out: string, webDir: string): string[] {
  const words = script
    .split(" ")
    .map((word) => (word === "dist/shard" ? out : word === "web/dist" ? webDir : word));
  if (words[0] !== "bun" || words[1] !== "build" || !words.includes(out) || !words.includes(webDir))
    throw new Error(
      `build:binary is no longer "bun build … --asset web/dist --outfile dist/shard": ${script}`,
    );
  return words;
}

/** Builds the binary; `dirs` are the temp folders it used (the caller removes them). */
export async function buildShardBinary(): Promise<{ binary: string; dirs: string[] }> {
  const out = join(benchTempDir("bin"), "shard");
  const webDir = await builtWebDir();
  const dirs = [dirname(out), dirname(webDir)];
  const [, ...args] = buildCommand(pkg.scripts["build:binary"], out, webDir);
  const build = Bun.spawn([process.execPath, ...args], {
    cwd: REPO,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stderr] = await Promise.all([build.exited, new Response(build.stderr).text()]);
  if (code !== 0) throw new Error(`build:binary failed (${code}): ${stderr}`);
  return { binary: out, dirs };
}
