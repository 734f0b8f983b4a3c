import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createBashTool } from "../../src/tools/bash.ts";
import { makeTempDir, removeDir, resultText, toolContext } from "./helpers.ts";

let dir: string;
let spillDir: string;
const groupsToReap: number[] = [];

beforeEach(() => {
  dir = realpathSync(makeTempDir());
  spillDir = makeTempDir("shard-spill-");
});
afterEach(() => {
  for (const pgid of groupsToReap.splice(0)) {
    if (!(pgid > 1)) continue; // never signal our own group (kill(0)) or init
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  removeDir(dir);
  removeDir(spillDir);
});

/** Living (non-zombie) processes in a process group, checked independently with ps. */
function livingMembers(pgid: number): string[] {
  const out = Bun.spawnSync(["ps", "-eo", "pid=,pgid=,stat="]).stdout.toString();
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, group, stat]) => Number(group) === pgid && stat !== undefined && !stat.startsWith("Z"))
    .map(([pid]) => pid ?? "");
}

/** Resolves with the accumulated streamed output once it satisfies `until`. */
function streamWatcher() {
  let text = "";
  const waiters: { until: (t: string) => boolean; resolve: (t: string) => void }[] = [];
  return {
    onUpdate(chunk: string) {
      text += chunk;
      for (const w of [...waiters]) {
        if (w.until(text)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(text);
        }
      }
    },
    waitFor(until: (t: string) => boolean): Promise<string> {
      if (until(text)) return Promise.resolve(text);
      return new Promise((resolve) => waiters.push({ until, resolve }));
    },
  };
}

describe("bash", () => {
  test("runs in cwd and reports exit code and duration", async () => {
    const tool = createBashTool();
    const result = await tool.execute({ command: "pwd; echo hi" }, toolContext(dir));
    expect(result).toMatchObject({
      is_error: false,
      exit_code: 0,
      content: { kind: "text", text: `${dir}\nhi\n` },
    });
    expect(typeof result.duration_ms).toBe("number");
    expect(tool.isReadOnly).toBe(false);
    expect(tool.paths?.({ command: "rm -rf x" })).toEqual([]);
    expect(tool.render?.({ command: "ls -la" })).toEqual({ kind: "command", command: "ls -la" });
  });

  test("streams stdout and stderr merged in arrival order", async () => {
    const watcher = streamWatcher();
    // Each step waits for the test to create a flag file, so the order is fixed by handshakes.
    const command =
      "echo one; until [ -f s1 ]; do sleep 0.02; done; echo two >&2; until [ -f s2 ]; do sleep 0.02; done; echo three";
    const pending = createBashTool().execute({ command }, toolContext(dir, { onUpdate: watcher.onUpdate }));
    await watcher.waitFor((t) => t.includes("one\n"));
    writeFileSync(join(dir, "s1"), "");
    await watcher.waitFor((t) => t.includes("two\n"));
    writeFileSync(join(dir, "s2"), "");
    const result = await pending;
    expect(resultText(result)).toBe("one\ntwo\nthree\n");
  });

  test("non-zero exit is an error that still carries the output", async () => {
    const result = await createBashTool().execute(
      { command: "echo out; echo err >&2; exit 3" },
      toolContext(dir),
    );
    expect(result.is_error).toBe(true);
    expect(result.exit_code).toBe(3);
    expect(result.content.kind).toBe("text");
    expect(resultText(result)).toContain("out\n");
    expect(resultText(result)).toContain("err\n");
  });

  test("a command killed by a signal reports 128+signal", async () => {
    const result = await createBashTool().execute({ command: "kill -9 $$" }, toolContext(dir));
    expect(result.exit_code).toBe(137);
    expect(resultText(result)).toBe("(no output)");
  });

  test("stdin is closed", async () => {
    const result = await createBashTool().execute({ command: "cat; echo after" }, toolContext(dir));
    expect(resultText(result)).toBe("after\n");
  });

  test("timeout kills the whole process group", async () => {
    const tool = createBashTool({ killGraceMs: 1000 });
    const watcher = streamWatcher();
    const result = await tool.execute(
      { command: "echo $$; sleep 30 & sleep 30", timeout: 1 },
      toolContext(dir, { onUpdate: watcher.onUpdate }),
    );
    const pgid = Number(resultText(result).split("\n")[0]);
    groupsToReap.push(pgid);
    expect(pgid).toBeGreaterThan(1);
    expect(result.is_error).toBe(true);
    expect(result.content.kind).toBe("error");
    expect(resultText(result)).toContain("timed out after 1 s");
    expect(livingMembers(pgid)).toEqual([]);
  });

  test("abort kills `sleep 30 & sleep 30` and leaves no process in its group", async () => {
    const controller = new AbortController();
    const watcher = streamWatcher();
    const pending = createBashTool().execute(
      { command: "echo $$; sleep 30 & sleep 30" },
      toolContext(dir, { signal: controller.signal, onUpdate: watcher.onUpdate }),
    );
    const pgid = Number((await watcher.waitFor((t) => t.includes("\n"))).trim());
    groupsToReap.push(pgid);
    expect(pgid).toBeGreaterThan(1);
    expect(livingMembers(pgid).length).toBeGreaterThan(0);
    controller.abort();
    const result = await pending;
    expect(result.is_error).toBe(true);
    expect(resultText(result)).toContain("aborted");
    expect(result.content.kind).toBe("error");
    expect(livingMembers(pgid)).toEqual([]);
  });

  test("an already-aborted signal does not start the command", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await createBashTool().execute(
      { command: "touch started" },
      toolContext(dir, { signal: controller.signal }),
    );
    expect(result.is_error).toBe(true);
    expect(resultText(result)).toContain("aborted");
    expect(existsSync(join(dir, "started"))).toBe(false);
  });

  test("long output keeps the tail and says what was dropped", async () => {
    const result = await createBashTool().execute({ command: "seq 1 5000" }, toolContext(dir));
    const text = resultText(result);
    expect(result.is_error).toBe(false);
    expect(text.startsWith("3001\n")).toBe(true);
    expect(text).toContain("\n5000\n\n[Output truncated: showing the last 2000 of 5000 lines");
    expect(text).toContain("were dropped and not saved");
    expect(text).toContain("> out.log 2>&1");
  });

  test("the byte limit applies to the tail too", async () => {
    const command = "for i in $(seq 1 1000); do printf '%0100d\\n' $i; done";
    const result = await createBashTool().execute({ command }, toolContext(dir));
    const text = resultText(result);
    const body = text.slice(0, text.indexOf("\n\n[Output truncated"));
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(50 * 1024);
    expect(body.endsWith(`${"0".repeat(96)}1000`)).toBe(true);
    expect(text).toContain(
      "showing the last 506 of 1000 lines (49.9 KB of 98.6 KB); the first 48.7 KB were dropped",
    );
  });

  test("a flood of output leaves no file behind and the result says it was cut", async () => {
    // The temp dir is where a spill file used to grow as large as the output (2.7 GB for `yes`).
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = spillDir;
    try {
      const result = await createBashTool().execute(
        { command: "yes | head -c 30000000; echo; echo last line" },
        toolContext(dir),
      );
      const text = resultText(result);
      expect(result).toMatchObject({ is_error: false, exit_code: 0 });
      expect(text).toContain("last line\n\n[Output truncated: showing the last 2000 of 15000002 lines");
      expect(text).toContain("(3.9 KB of 28.6 MB); the first 28.6 MB were dropped and not saved");
      expect(readdirSync(spillDir)).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
  });

  test("returns when the shell exits even if a background job holds the pipes", async () => {
    const result = await createBashTool().execute(
      { command: "echo $$; sleep 30 & echo done" },
      toolContext(dir),
    );
    const pgid = Number(resultText(result).split("\n")[0]);
    groupsToReap.push(pgid);
    expect(pgid).toBeGreaterThan(1);
    expect(result).toMatchObject({ is_error: false, exit_code: 0 });
    expect(resultText(result)).toContain("done\n");
  });

  describe("a descendant that left the group (setsid) and still holds the pipes", () => {
    /** `setsid sleep 30` writes its pid to escaped.pid; "started" once the sleep runs outside the group. */
    const ESCAPE =
      "setsid sleep 30 & echo $! > escaped.pid; " +
      'until [ "$(ps -o comm= -p $!)" = sleep ]; do sleep 0.01; done; echo started';
    afterEach(() => {
      // Read here, not after the call: on a regression the call never returns.
      const file = join(dir, "escaped.pid");
      const pid = existsSync(file) ? Number(readFileSync(file, "utf8").trim()) : 0;
      if (!(pid > 1)) return;
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    });

    test("does not hold the call once the shell has exited", async () => {
      const result = await createBashTool().execute({ command: ESCAPE, timeout: 2 }, toolContext(dir));
      expect(result).toMatchObject({ is_error: false, exit_code: 0 });
      expect(resultText(result)).toBe("started\n");
    });

    test("does not hold a timed-out call", async () => {
      const result = await createBashTool({ killGraceMs: 200 }).execute(
        { command: `${ESCAPE}; sleep 30`, timeout: 2 },
        toolContext(dir),
      );
      expect(result.is_error).toBe(true);
      expect(resultText(result)).toContain("started\n");
      expect(resultText(result)).toContain("timed out");
    });

    test("does not hold an aborted call", async () => {
      const controller = new AbortController();
      const watcher = streamWatcher();
      const pending = createBashTool().execute(
        { command: `${ESCAPE}; sleep 30` },
        toolContext(dir, { signal: controller.signal, onUpdate: watcher.onUpdate }),
      );
      await watcher.waitFor((t) => t.includes("started\n"));
      controller.abort();
      const result = await pending;
      expect(result.is_error).toBe(true);
      expect(resultText(result)).toContain("aborted");
    });
  });

  test("a missing working directory is an error result", async () => {
    const result = await createBashTool().execute({ command: "true" }, toolContext(join(dir, "missing")));
    expect(result.is_error).toBe(true);
    expect(result.content.kind).toBe("error");
  });
});
