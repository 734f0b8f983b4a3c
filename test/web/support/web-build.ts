import { join } from "node:path";
import { makeTempDir } from "../../support/temp-dirs.ts";

const REPO = join(import.meta.dir, "..", "..", "..");
let built: Promise<string> | undefined;

export function builtWebDir(): Promise<string> {
  built ??= (async () => {
    // Named dist, as in the checkout: a binary embedding it serves the same paths.
    const outDir = join(makeTempDir("shard-web-"), "dist");
    const proc = Bun.spawn(
      [
        process.execPath,
        join(REPO, "node_modules", "vite", "bin", "vite.js"),
        "build",
        "web",
        "--outDir",
        outDir,
      ],
      { cwd: REPO, stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } },
    );
    const [code, out, err] = await Promise.all([
      proc.exited,
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
    ]);
    if (code !== 0) throw new Error(`vite build failed (${code}):\n${out}\n${err}`);
    return outDir;
  })();
  return built;
}
