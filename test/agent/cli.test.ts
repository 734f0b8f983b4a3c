/**
 * The `shard` command line as a user runs it: help/version/usage errors, `shard agent`
 * start-up failures and warnings, and `shard run` one-shot mode against the mock LLM server
 * reached only through OPENAI_BASE_URL.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { grantFilePath } from "../../src/permissions/grant-store.ts";
import { collect, type Ran, shard, spawnShard } from "../cli/support/shard-cli.ts";
import { compiledBinary } from "../support/compiled-binary.ts";
import { type Msg, mockHome, SHARD_MAIN, tempDir } from "./support/agent-process.ts";
import { assistantMessages, blockText, livingGroupMembers, until } from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, start } = useAgentHarness();

/** The environment of a user with only OPENAI_BASE_URL pointing at a compatible server. */
function openAiEnv(extraEnv: Record<string, string> = {}): Record<string, string> {
  return {
    OPENAI_BASE_URL: `${llm().url}/v1`,
    SHARD_MODEL: "openai/anything",
    SHARD_RETRY_BASE_MS: "5",
    ...extraEnv,
  };
}

/** `shard run` as a user with only OPENAI_BASE_URL pointing at a compatible server. */
function run(args: string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<Ran> {
  return shard(["run", "--cwd", cwd, ...args], openAiEnv(extraEnv));
}

function jsonLines(text: string): Msg[] {
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Msg);
}

describe("shard", () => {
  test("--help and --version exit 0", async () => {
    const help = await shard(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage:");
    expect(help.stdout).toContain("agent");
    expect(help.stdout).toContain("run");
    for (const spelling of ["--version", "-v", "version"]) {
      const version = await shard([spelling]);
      expect(version.code).toBe(0);
      expect(version.stdout.trim()).toBe(pkg.version);
    }
  });

  test("an unknown command exits 2 with a clear message", async () => {
    const res = await shard(["frobnicate"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('unknown command "frobnicate"');
    expect(res.stderr).toContain("--help");
    expect(res.stdout).toBe("");
  });
});

describe("shard agent", () => {
  test("an unknown flag exits 2", async () => {
    const res = await shard(["agent", "--bogus"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("--bogus");
  });

  test("an unknown --model is a usage error (exit 2) and still a fatal error event on stdout", async () => {
    const res = await shard(["agent", "--model", "nope/x", "--cwd", tempDir("cwd")]);
    expect(res.code).toBe(2);
    const events = jsonLines(res.stdout);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "error", code: "NOT_FOUND", fatal: true });
    expect(events[0]!.message).toContain("nope/x");
    expect(res.stderr).toContain("nope/x");
  });

  test("a bad models.json entry is reported with file, field and reason and does not stop the agent", async () => {
    const home = mockHome(llm().url);
    const file = join(home, "models.json");
    const config = JSON.parse(readFileSync(file, "utf8"));
    config.providers.mock.models.push({ id: "broken", context_window: "huge", max_output: 100 });
    writeFileSync(file, JSON.stringify(config));
    const agent = start({ home });
    const warning = await agent.waitFor((e) => e.type === "error" && e.fatal === false);
    for (const text of [warning.message as string, agent.stderr]) {
      expect(text).toContain(file);
      expect(text).toContain("providers.mock.models[1].context_window");
    }
    expect(warning.message).toMatch(/integer|number/i);
    expect(agent.events.map((e) => e.type).slice(0, 2)).toEqual(["hello", "sync"]);

    const models = await agent.request({ type: "list_models" });
    const ids = models.data.models.map((m: Msg) => m.id);
    expect(ids).toContain("mock/chat");
    expect(ids).not.toContain("mock/broken");
    const events = await agent.prompt("still works?");
    expect(blockText(assistantMessages(events)[0]!)).toBe("Hello from the mock LLM.");
  });
});

describe("shard run", () => {
  test("with only OPENAI_BASE_URL set, the model is discovered from the server's /models", async () => {
    const cwd = tempDir("cwd");
    const base = llm().requests.length;
    llm().enqueue({ steps: [{ text: "Found you." }] });
    const res = await shard(["run", "--cwd", cwd, "hello"], { OPENAI_BASE_URL: `${llm().url}/v1` });
    expect(res.stderr).not.toContain("error");
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("Found you.\n");
    const sent = llm().requests.slice(base);
    expect(sent.map((r) => r.path)).toEqual(["/v1/models", "/v1/chat/completions"]);
    expect(sent[1]!.body.model).toBe("mock-model");
  });

  test("text on stdout, one summary line per tool call on stderr, exit 0", async () => {
    const cwd = tempDir("cwd");
    writeFileSync(join(cwd, "hello.txt"), "hi\n");
    const base = llm().requests.length;
    llm().enqueue(
      {
        steps: [
          { text: "Let me look.", chunks: 2 },
          { tool_call: { name: "ls", args: { path: "." } } },
          { tool_call: { name: "read", args: { path: "hello.txt" } } },
        ],
      },
      { steps: [{ text: "There is one file.", chunks: 3 }] },
    );
    const res = await run(["list the files"], cwd);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("Let me look.There is one file.\n");
    const toolLines = res.stderr.split("\n").filter((l) => /^[✓✗] /.test(l));
    expect(toolLines).toHaveLength(2);
    expect(toolLines[0]).toMatch(/^✓ ls \./);
    expect(toolLines[1]).toMatch(/^✓ read hello\.txt/);
    expect(llm().requests[base]).toMatchObject({ path: "/v1/chat/completions", body: { model: "anything" } });
    expect(JSON.stringify(llm().requests[base]?.body.messages)).toContain("list the files");
  });

  test("--json prints every event as JSONL", async () => {
    const cwd = tempDir("cwd");
    llm().enqueue({ steps: [{ text: "JSON mode answer.", chunks: 2 }] });
    const res = await run(["--json", "answer in json"], cwd);
    expect(res.code).toBe(0);
    const events = jsonLines(res.stdout);
    const types = events.map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(["hello", "sync"]);
    for (const t of ["response", "turn_start", "message_delta", "message_complete", "usage", "turn_end"])
      expect(types).toContain(t);
    const deltas = events.filter((e) => e.type === "message_delta").map((e) => e.text_delta);
    expect(deltas.join("")).toBe("JSON mode answer.");
    expect(res.stdout).not.toContain("session:");
    expect(events.find((e) => e.type === "turn_end")?.end_reason).toBe("completed");
  });

  test("--json: a turn the provider refuses ends with end_reason error in turn_end", async () => {
    llm().enqueue({ status: 401, error_type: "invalid api key" });
    const res = await run(["--json", "refused"], tempDir("cwd"));
    expect(res.code).not.toBe(0);
    expect(jsonLines(res.stdout).find((e) => e.type === "turn_end")?.end_reason).toBe("error");
  });

  test("--json prints the session id on stderr, and --session resumes it", async () => {
    const cwd = tempDir("cwd");
    llm().enqueue({ steps: [{ text: "First." }] }, { steps: [{ text: "Second." }] });
    const home = tempDir("home");
    const first = await run(["--json", "remember the word kumquat"], cwd, { SHARD_HOME: home });
    expect(first.code).toBe(0);
    const id = /^session: (\S+)$/m.exec(first.stderr)?.[1];
    expect(id).toMatch(/^ses_/);
    expect(jsonLines(first.stdout).find((e) => e.type === "sync")?.session_id).toBe(id);
    const base = llm().requests.length;
    const second = await run(["--json", "--session", id!, "which word?"], cwd, { SHARD_HOME: home });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`session: ${id}`);
    expect(JSON.stringify(llm().requests[base]?.body.messages)).toContain("kumquat");
  });

  test("a mutating tool call is denied without --allow and reported on stderr", async () => {
    const cwd = tempDir("cwd");
    llm().enqueue(
      { steps: [{ tool_call: { name: "write", args: { path: "out.txt", content: "written\n" } } }] },
      { steps: [{ text: "Could not write." }] },
    );
    const res = await run(["write a file"], cwd);
    // A denied call is its own exit code, so a script can tell it from a failure (RUN_HELP).
    expect(res.code).toBe(3);
    expect(res.stderr).toContain("denied:");
    expect(res.stderr).toContain("--allow write");
    expect(res.stderr).toMatch(/^✗ write out\.txt/m);
    expect(existsSync(join(cwd, "out.txt"))).toBe(false);
    expect(res.stdout).toContain("Could not write.");
  });

  test("with --allow write the write runs", async () => {
    const cwd = tempDir("cwd");
    llm().enqueue(
      { steps: [{ tool_call: { name: "write", args: { path: "out.txt", content: "written\n" } } }] },
      { steps: [{ text: "Wrote it." }] },
    );
    const res = await run(["--allow", "write", "write a file"], cwd);
    expect(res.code).toBe(0);
    expect(res.stderr).not.toContain("denied:");
    expect(res.stderr).toMatch(/^✓ write out\.txt/m);
    expect(readFileSync(join(cwd, "out.txt"), "utf8")).toBe("written\n");
    expect(res.stdout).toContain("Wrote it.");
  });

  test("Ctrl-C aborts the turn, kills the running bash process group and exits 130", async () => {
    const cwd = tempDir("cwd");
    llm().enqueue({
      steps: [{ tool_call: { name: "bash", args: { command: "echo $$ > pid.txt; sleep 30 & sleep 30" } } }],
    });
    const proc = spawnShard(
      // The group of an unconfined command (its pid is a host pid); test/sandbox/ covers a confined one.
      [process.execPath, SHARD_MAIN, "run", "--yes", "--sandbox", "off", "--cwd", cwd, "sleep please"],
      openAiEnv(),
    );
    const pgid = await until(() => {
      const n = existsSync(join(cwd, "pid.txt")) ? Number(readFileSync(join(cwd, "pid.txt"), "utf8")) : 0;
      return n > 0 && livingGroupMembers(n).length >= 3 ? n : undefined;
    });
    proc.kill("SIGINT");
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(130);
    expect(stderr).toContain("interrupted");
    expect(await until(() => (livingGroupMembers(pgid).length === 0 ? true : undefined))).toBe(true);
  });

  test("a warning during the turn (an untrusted grants file) is shown, and the answered run still exits 0", async () => {
    const cwd = tempDir("cwd");
    const home = tempDir("home");
    const grants = grantFilePath(home, cwd);
    mkdirSync(dirname(grants), { recursive: true, mode: 0o700 });
    writeFileSync(grants, JSON.stringify({ version: 1, cwd, rules: [] }));
    chmodSync(grants, 0o666);
    llm().enqueue(
      { steps: [{ tool_call: { name: "ls", args: {} } }] },
      { steps: [{ text: "Nothing here." }] },
    );
    const res = await run(["what is here?"], cwd, { SHARD_HOME: home });
    expect(res.stderr).toContain("is not trusted");
    expect(res.stdout).toContain("Nothing here.");
    expect(res.code).toBe(0);
  });

  test("a provider failing until retries are exhausted gives a non-zero exit", async () => {
    const cwd = tempDir("cwd");
    const base = llm().requests.length;
    llm().enqueue({ status: 500 }, { status: 500 });
    const res = await run(["this will fail"], cwd, { SHARD_RETRY_MAX_ATTEMPTS: "2" });
    expect(llm().requests.length - base).toBe(2);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("PROVIDER_ERROR");
    // The retry is shown while it happens, from the runtime's status detail.
    expect(res.stderr.split("\n").filter((l) => /^retrying in .*attempt/.test(l))).toHaveLength(1);
  });
});

describe("compiled binary", () => {
  test("`bun run build`'s command produces a single binary that runs a tool turn", async () => {
    const out = await compiledBinary();
    const version = Bun.spawnSync([out, "--version"], { stdout: "pipe" });
    expect(version.stdout.toString().trim()).toBe(pkg.version);

    const cwd = tempDir("cwd");
    writeFileSync(join(cwd, "a.txt"), "a\n");
    llm().enqueue({ steps: [{ tool_call: { name: "ls", args: {} } }] }, { steps: [{ text: "One file." }] });
    const { stdout, stderr, code } = await collect(
      spawnShard([out, "run", "--cwd", cwd, "what is here?"], openAiEnv()),
    );
    expect(code).toBe(0);
    expect(stdout).toBe("One file.\n");
    expect(stderr).toMatch(/^✓ ls/m);
  }, 90_000);
});
