/**
 * `shard run` input and output as a user meets them, in real processes against the mock LLM
 * server: the prompt from stdin, both spellings of `--allow`, and hostile model text that
 * must not reach a terminal as raw control characters.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { SCRIPT, type SpawnOptions, shard, shardOnTerminal } from "./support/shard-cli.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();

function userEnv(): Record<string, string> {
  return { OPENAI_BASE_URL: `${llm().url}/v1`, SHARD_MODEL: "openai/anything", SHARD_RETRY_BASE_MS: "5" };
}

function run(args: string[], cwd: string, options: SpawnOptions = {}) {
  return shard(["run", "--cwd", cwd, ...args], userEnv(), options);
}

/** The text of the user message in the last request the mock server received. */
function lastPrompt(): string {
  const messages = llm().requests.at(-1)?.body.messages as { role: string; content: unknown }[];
  return JSON.stringify(messages.filter((m) => m.role === "user"));
}

const ESC = "\u001b";
const RLO = "\u202e";

describe("the prompt of shard run", () => {
  test("comes from stdin when none is given (echo hi | shard run)", async () => {
    llm().enqueue({ steps: [{ text: "Piped." }] });
    const res = await run([], tempDir("cwd"), { stdin: "summarize the piped prompt\n" });
    expect(res.stderr).not.toContain("error");
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("Piped.\n");
    expect(lastPrompt()).toContain("summarize the piped prompt");
  });

  test("comes from stdin with `-`", async () => {
    llm().enqueue({ steps: [{ text: "Dashed." }] });
    const res = await run(["-"], tempDir("cwd"), { stdin: "the dashed prompt" });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("Dashed.\n");
    expect(lastPrompt()).toContain("the dashed prompt");
  });

  test("empty stdin is a usage error", async () => {
    const res = await run(["-"], tempDir("cwd"), { stdin: "  \n" });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("a prompt is required");
  });

  for (const allow of [
    ["--allow=bash,write"],
    ["--allow", "bash,write"],
    ["--allow", "bash", "--allow", "write"],
  ]) {
    test(`${allow.join(" ")} allows both tools and keeps the prompt`, async () => {
      const cwd = tempDir("cwd");
      llm().enqueue(
        {
          steps: [
            { tool_call: { name: "write", args: { path: "a.txt", content: "a\n" } } },
            { tool_call: { name: "bash", args: { command: "cp a.txt b.txt" } } },
          ],
        },
        { steps: [{ text: "Done." }] },
      );
      const res = await run([...allow, "copy the file"], cwd);
      expect(res.stderr).not.toContain("denied:");
      expect(res.code).toBe(0);
      expect(readFileSync(join(cwd, "b.txt"), "utf8")).toBe("a\n");
      expect(lastPrompt()).toContain("copy the file");
    });
  }

  test("--allow of one tool still denies another", async () => {
    const cwd = tempDir("cwd");
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "touch made.txt" } } }] },
      { steps: [{ text: "Denied." }] },
    );
    const res = await run(["--allow", "write", "make a file"], cwd);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain("denied:");
    expect(res.stderr).toContain("use --allow bash or --yes to allow");
    expect(existsSync(join(cwd, "made.txt"))).toBe(false);
  });
});

describe("hostile model text", () => {
  test("tool lines, errors and denials on stderr carry no raw ESC or bidi controls", async () => {
    const cwd = tempDir("cwd");
    const hostile = `${ESC}]0;owned${ESC}\\${ESC}[2J${RLO}txt.exe`;
    llm().enqueue(
      {
        steps: [
          { tool_call: { name: "read", args: { path: hostile } } },
          { tool_call: { name: "bash", args: { command: `echo ${hostile}` } } },
        ],
      },
      { steps: [{ text: "ok" }] },
    );
    const res = await run([], cwd, { stdin: "look" });
    expect(res.code).toBe(3); // the bash call was denied
    const toolLines = res.stderr.split("\n").filter((l) => /^[✓✗] /.test(l));
    expect(toolLines).toHaveLength(2);
    expect(res.stderr).toContain("denied:");
    expect(res.stderr).not.toContain(ESC);
    expect(res.stderr).not.toContain(RLO);
    expect(res.stderr).toContain("\\u001b]0;owned");
    expect(res.stderr).toContain("\\u202etxt.exe");
  });

  test("the answer stays byte-exact on a pipe", async () => {
    llm().enqueue({ steps: [{ text: `colour: ${ESC}[31mred${ESC}[0m` }] });
    const res = await run(["say red"], tempDir("cwd"));
    expect(res.stdout).toBe(`colour: ${ESC}[31mred${ESC}[0m\n`);
  });

  test.skipIf(SCRIPT === null)("the answer is escaped on a terminal", async () => {
    llm().enqueue({ steps: [{ text: `title: ${ESC}]0;owned${ESC}\\ and ${RLO}gnp.exe` }] });
    const res = await shardOnTerminal(["run", "--cwd", tempDir("cwd"), "set a title"], userEnv());
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("title: \\u001b]0;owned\\u001b\\ and \\u202egnp.exe");
    expect(res.stdout).not.toContain(`${ESC}]0;owned`);
    expect(res.stdout).not.toContain(RLO);
  });
});
