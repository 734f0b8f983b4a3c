/**
 * The compiled `shard` binary, built once per test process with the package's own
 * `build:binary` script (output and embedded web client redirected to temporary folders).
 */
import { expect } from "bun:test";
import { join, resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { tempDir } from "../agent/support/agent-process.ts";
import { builtWebDir } from "../web/support/web-build.ts";

const REPO = resolve(import.meta.dir, "..", "..");
let built: Promise<string> | undefined;

export function compiledBinary(): Promise<string> {
  built ??= (async () => {
    const out = join(tempDir("bin"), "shard");
    const webDir = await builtWebDir();
    const script = pkg.scripts["build:binary"]
      .split(" ")
      .map((word) => (word === "dist/shard" ? out : word === "web/dist" ? webDir : word));
    expect(script.slice(0, 2)).toEqual(["bun", "build"]);
    expect(script).toContain(out);
    expect(script).toContain(webDir);
    const build = Bun.spawn([process.execPath, ...script.slice(1)], {
      cwd: REPO,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [code, stderr] = await Promise.all([build.exited, new Response(build.stderr).text()]);
    if (code !== 0) throw new Error(`build:binary failed (${code}): ${stderr}`);
    return out;
  })();
  return built;
}
