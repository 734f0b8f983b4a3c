/**
 * Distribution benchmark (issue 11): the compiled binary's cold start to a served page — spawn
 * `shard daemon --port 0` on a fresh SHARD_HOME, read the URL it prints, GET / until the page
 * comes back — and the binary's size.
 * Usage: bun run build && bun bench/binary-start.ts [--runs 15] [--binary dist/shard]
 */
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 15;
const binaryAt = process.argv.indexOf("--binary");
const binary = resolve(binaryAt > 0 ? (process.argv[binaryAt + 1] ?? "dist/shard") : "dist/shard");

async function oneStart(): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), "shard-bench-bin-"));
  const started = performance.now();
  const proc = Bun.spawn([binary, "daemon", "--port", "0"], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "ignore",
    env: { PATH: process.env.PATH ?? "", HOME: home, SHARD_HOME: home },
  });
  try {
    const reader = proc.stdout.getReader();
    let text = "";
    let url: string | undefined;
    while (url === undefined) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the daemon exited before printing its URL");
      text += new TextDecoder().decode(value);
      url = /^(http:\/\/127\.0\.0\.1:\d+)$/m.exec(text)?.[1];
    }
    const page = await fetch(`${url}/`);
    const body = await page.text();
    if (page.status !== 200 || !body.includes("<title>Shard</title>")) {
      throw new Error(`the page did not come back (status ${page.status})`);
    }
    return performance.now() - started;
  } finally {
    proc.kill("SIGKILL");
    await proc.exited;
  }
}

const times: number[] = [];
await oneStart(); // warm the page cache once; every timed run is a fresh process and home
for (let i = 0; i < runs; i++) times.push(await oneStart());
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
console.log(`binary: ${binary}`);
console.log(`size: ${(statSync(binary).size / 1024 / 1024).toFixed(1)} MB`);
console.log(
  `cold start → page served (${runs} runs): min ${at(0).toFixed(1)} ms, median ${at(0.5).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`,
);
