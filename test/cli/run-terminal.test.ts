/**
 * `shard run` as a person sees it on a terminal (a real pseudo-terminal, the mock model): colour,
 * a line as each tool starts, a spinner with the time while the model is quiet, and one closing
 * line with tokens, time and session. NO_COLOR turns the colour off.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SHARD_MAIN, tempDir } from "../agent/support/agent-process.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer({ clearQueueBeforeEach: true });

/** `shard run ARGS` on a pseudo-terminal; `seen(text, from)` resolves once the screen shows it past `from`. */
function runOnTerminal(args: string[], env: Record<string, string> = {}) {
  const home = tempDir("home");
  const utf8 = new TextDecoder();
  let screen = "";
  const waiting: { text: string; from: number; resolve: () => void }[] = [];
  const proc = Bun.spawn([process.execPath, SHARD_MAIN, "run", ...args], {
    env: {
      ...CHILD_ENV,
      HOME: home,
      SHARD_HOME: home,
      OPENAI_BASE_URL: `${llm().url}/v1`,
      SHARD_MODEL: "openai/anything",
      ...env,
    },
    terminal: {
      cols: 120,
      rows: 40,
      data: (_t, bytes) => {
        screen += utf8.decode(bytes, { stream: true });
        for (const w of waiting.filter((w) => screen.slice(w.from).includes(w.text))) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve();
        }
      },
    },
  });
  const seen = (text: string, from = 0) =>
    screen.slice(from).includes(text)
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiting.push({ text, from, resolve }));
  const exited = proc.exited.then((code) => {
    proc.terminal?.close();
    return code;
  });
  return { seen, exited, screen: () => screen };
}

describe("shard run on a terminal", () => {
  test("colour, a line as the tool starts, a spinner while the model is quiet, and a closing summary", async () => {
    const cwd = tempDir("cwd");
    writeFileSync(join(cwd, "notes.txt"), "hello\n");
    llm().enqueue(
      { steps: [{ tool_call: { name: "read", args: { path: "notes.txt" } } }] },
      { steps: [{ hold: "thinking" }, { text: "It says hello." }] },
    );
    const run = runOnTerminal(["--cwd", cwd, "read the notes"]);
    await run.seen("\u001b[2m▸\u001b[0m read notes.txt");
    await run.seen("\u001b[32m✓\u001b[0m read notes.txt");
    // The model is held: the output is quiet, so the spinner counts the time.
    const afterTool = run.screen().length;
    await run.seen("working ", afterTool);
    llm().release("thinking");
    expect(await run.exited).toBe(0);
    const screen = run.screen();
    expect(screen).toContain("It says hello.");
    // This home's model has no price: its cost is unknown, never $0.
    expect(screen).toMatch(/\d+ in · \d+ out · cost unknown · \d+\.\d s · session ses_/);
    expect(screen).not.toContain("session: ");
  });

  test("NO_COLOR: no colour codes from Shard, the same lines", async () => {
    const cwd = tempDir("cwd");
    writeFileSync(join(cwd, "notes.txt"), "hello\n");
    llm().enqueue(
      { steps: [{ tool_call: { name: "read", args: { path: "notes.txt" } } }] },
      { steps: [{ text: "Done." }] },
    );
    const run = runOnTerminal(["--cwd", cwd, "read the notes"], { NO_COLOR: "1" });
    expect(await run.exited).toBe(0);
    expect(run.screen()).toContain("✓ read notes.txt");
    expect(run.screen()).not.toContain("\u001b[32m");
    expect(run.screen()).not.toContain("\u001b[2m");
  });
});
