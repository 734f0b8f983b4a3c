/**
 * The web client's initial bundle (issue 10: aim < 150 KB gzip): what a first visit downloads
 * before the control room can start — index.html and every script, stylesheet and module
 * preload it references — built by Vite as `bun run build:web` does, gzipped at level 9 (what
 * a server would send at best; the daemon itself serves the files uncompressed on loopback).
 *   bun bench/web-bundle.ts [--dir web/dist]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "bun";
import { builtWebDir } from "../test/web/support/web-build.ts";

const at = process.argv.indexOf("--dir");
const dir = at > 0 ? (process.argv[at + 1] ?? "web/dist") : await builtWebDir();
const html = readFileSync(join(dir, "index.html"), "utf8");
const referenced = [...html.matchAll(/(?:src|href)="\/?([^"]+\.(?:js|css))"/g)].flatMap((m) =>
  m[1] ? [m[1]] : [],
);
const files = ["index.html", ...new Set(referenced)];
let raw = 0;
let gzip = 0;
console.log("| file | bytes | gzip |");
console.log("|---|---|---|");
for (const file of files) {
  const bytes = readFileSync(join(dir, file));
  const packed = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gzip += packed;
  console.log(`| ${file.replace(/-[A-Za-z0-9_-]{8}\./, "-[hash].")} | ${kb(bytes.length)} | ${kb(packed)} |`);
}
console.log(`| **initial bundle** | ${kb(raw)} | **${kb(gzip)}** (aim < 150 KB) |`);

function kb(n: number): string {
  return `${(n / 1024).toFixed(1)} KB`;
}
