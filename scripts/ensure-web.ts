/**
 * Builds the web client when web/dist is missing or older than its sources, so `bun run shard`
 * on a fresh clone serves the page. Quiet when the build is current.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const web = join(import.meta.dir, "..", "web");

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function builtAt(): number {
  try {
    return statSync(join(web, "dist", "index.html")).mtimeMs;
  } catch {
    return 0;
  }
}

const sources = Math.max(
  newestMtime(join(web, "src")),
  newestMtime(join(web, "index.html")),
  newestMtime(join(web, "vite.config.ts")),
);
if (builtAt() < sources) {
  process.stderr.write("building the web client (web/dist)…\n");
  const vite = join(import.meta.dir, "..", "node_modules", "vite", "bin", "vite.js");
  const build = Bun.spawnSync([process.execPath, vite, "build", web, "--logLevel", "warn"], {
    stdout: "inherit",
    stderr: "inherit",
  });
  if (build.exitCode !== 0) {
    process.stderr.write("the web client did not build; the daemon runs without its page\n");
  }
}
