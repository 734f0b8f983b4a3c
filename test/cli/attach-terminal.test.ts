/**
 * `shard attach` as a person sees it on a terminal (a real pseudo-terminal, a real daemon, the
 * mock model): while a turn runs a spinner line redraws above the line being typed, what is
 * typed survives every redraw and is sent as typed, and the spinner is gone once the turn ends.
 * On pipes no spinner byte is written.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { SHARD_MAIN } from "../agent/support/agent-process.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { TerminalScreen } from "../support/terminal-screen.ts";
import { LiveCli } from "./support/live-cli.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);
const running: { kill(): void }[] = [];
afterEach(() => {
  for (const proc of running.splice(0)) proc.kill();
});

const COLS = 100;
const SPINNER = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] working \d+\.\d s$/;

/** `shard attach ARGS` on a pseudo-terminal; `until(check)` resolves once the screen passes it. */
function attachOnTerminal(home: string, args: string[]) {
  const utf8 = new TextDecoder();
  const screen = new TerminalScreen(COLS);
  let raw = "";
  const waiting: { check: () => boolean; resolve: () => void }[] = [];
  const proc = Bun.spawn([process.execPath, SHARD_MAIN, "attach", ...args], {
    env: { ...CHILD_ENV, HOME: home, SHARD_HOME: home },
    terminal: {
      cols: COLS,
      rows: 40,
      data: (_t, bytes) => {
        const text = utf8.decode(bytes, { stream: true });
        raw += text;
        screen.write(text);
        for (const w of waiting.filter((w) => w.check())) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve();
        }
      },
    },
  });
  running.push(proc);
  const until = (check: () => boolean) =>
    check() ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ check, resolve }));
  const exited = proc.exited.then((code) => {
    proc.terminal?.close();
    return code;
  });
  return {
    screen,
    until,
    exited,
    raw: () => raw,
    type: (text: string) => proc.terminal?.write(text),
  };
}

/** The input line (the cursor's) and the line above it, where the spinner shows. */
function bottom(screen: TerminalScreen): { status: string; input: string } {
  return { status: screen.above(1), input: screen.cursor().line };
}

/** Typed text long enough to wrap onto a second row, as the input line does on the screen. */
const TYPED = `keep going ${"x".repeat(COLS)}`;
const TYPED_ROWS: [string, string] = [TYPED.slice(0, COLS), TYPED.slice(COLS)];

describe("shard attach on a terminal", () => {
  test("a spinner redraws above the typed line, which is kept and sent intact; gone after the turn", async () => {
    const h = await startHarness();
    const client = await h.unixClient();
    const id = await h.createAgent(client);
    await client.ok({ type: "agent.attach", agent_id: id });
    llm().enqueue(
      { steps: [{ hold: "thinking" }, { text: "First answer." }] },
      { steps: [{ text: "Second answer." }] },
    );
    const term = attachOnTerminal(h.home, [id]);
    await term.until(() => term.screen.lines().some((l) => l.startsWith("attached to")));

    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: id, message: "think hard" });
    // The model is held: the spinner shows on its own line, the (empty) input line below it.
    await term.until(() => SPINNER.test(bottom(term.screen).status));

    // Pasted at once and longer than the terminal is wide: the input line wraps onto two rows.
    term.type(TYPED);
    const typedOnScreen = () =>
      [term.screen.above(1), term.screen.above(0)].join("\n") === TYPED_ROWS.join("\n");
    await term.until(typedOnScreen);
    // The spinner redraws (its time changes) while the typed text stays whole below it.
    const typedAt = term.screen.above(2);
    await term.until(() => {
      const status = term.screen.above(2);
      return status !== typedAt && SPINNER.test(status) && typedOnScreen();
    });
    expect(term.screen.cursor()).toEqual({ line: TYPED_ROWS[1], col: TYPED.length - COLS });
    // One spinner line only: no frame left behind by a redraw.
    expect(term.screen.lines().filter((l) => l.includes("working"))).toHaveLength(1);
    expect(term.screen.lines().slice(-3, -2)).toEqual([term.screen.above(2)]);
    expect(term.screen.lines().some((l) => l.startsWith("attached to"))).toBe(true);

    // Submitted while the turn runs (a follow-up), or just after it ended (a prompt): the same line.
    term.type("\r");
    llm().release("thinking");
    const prompt = await client.waitAgent(
      id,
      "message_complete",
      from,
      (m) => m.message?.role === "user" && JSON.stringify(m.message).includes("keep going"),
    );
    // Sent as typed: the line's text alone, no spinner frame and no control bytes.
    expect(prompt.message.content).toEqual([{ type: "text", text: TYPED }]);
    await client.waitAgent(
      id,
      "message_complete",
      from,
      (m) => m.message?.role === "assistant" && JSON.stringify(m.message).includes("Second answer."),
    );
    // Each turn ends with its summary line; the second one is the barrier.
    const summaries = () => term.screen.lines().filter((l) => / · \d+\.\d s$/.test(l)).length;
    await term.until(() => summaries() === 2);
    const lines = term.screen.lines();
    expect(lines.some((l) => l.includes("working"))).toBe(false);
    expect(lines).toContain("First answer.");
    expect(lines).toContain("Second answer.");
    // The submitted line stays on the screen once, as it was typed.
    const at = lines.indexOf(TYPED_ROWS[0]);
    expect(lines.slice(at, at + 2)).toEqual(TYPED_ROWS);
    expect(lines.filter((l) => l.includes("keep going"))).toHaveLength(1);

    term.type("\u0004"); // Ctrl-D detaches
    expect(await term.exited).toBe(0);
  });

  test("keys typed while the answer is mid-line wait for its end, then show and send whole", async () => {
    const h = await startHarness();
    const client = await h.unixClient();
    const id = await h.createAgent(client);
    await client.ok({ type: "agent.attach", agent_id: id });
    llm().enqueue(
      { steps: [{ text: "Part one, " }, { hold: "mid-line" }, { text: "part two." }] },
      { steps: [{ text: "Noted." }] },
    );
    const term = attachOnTerminal(h.home, [id]);
    await term.until(() => term.screen.lines().some((l) => l.startsWith("attached to")));

    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: id, message: "two parts" });
    await term.until(() => term.screen.cursor().line === "Part one,");
    term.type("abc");
    llm().release("mid-line");
    // The answer's line is whole, and what was typed is on the input line below it.
    await term.until(() => bottom(term.screen).input === "abc");
    expect(term.screen.lines()).toContain("Part one, part two.");
    expect(term.screen.lines().filter((l) => l.includes("abc"))).toEqual(["abc"]);

    term.type("\r");
    const prompt = await client.waitAgent(
      id,
      "message_complete",
      from,
      (m) => m.message?.role === "user" && JSON.stringify(m.message).includes("abc"),
    );
    expect(prompt.message.content).toEqual([{ type: "text", text: "abc" }]);
    await term.until(() => term.screen.lines().includes("Noted."));
  });

  test("on pipes no spinner is drawn, while one on a terminal shows the turn is long enough", async () => {
    const h = await startHarness();
    const client = await h.unixClient();
    const id = await h.createAgent(client);
    await client.ok({ type: "agent.attach", agent_id: id });
    llm().enqueue({ steps: [{ hold: "thinking" }, { text: "Piped answer." }] });
    const piped = new LiveCli(["attach", id], { HOME: h.home, SHARD_HOME: h.home });
    running.push(piped);
    await piped.waitFor("stderr", "attached to");
    const term = attachOnTerminal(h.home, [id]);
    await term.until(() => term.screen.lines().some((l) => l.startsWith("attached to")));

    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: id, message: "think hard" });
    // A second into the turn on the terminal: the piped attach has been quiet as long.
    await term.until(() => /working [1-9]\d*\.\d s$/.test(bottom(term.screen).status));
    llm().release("thinking");
    await client.waitAgent(id, "turn_end", from);
    await piped.waitFor("stdout", "Piped answer.");
    piped.endInput();
    expect(await piped.exited).toBe(0);
    const output = piped.output.stdout + piped.output.stderr;
    expect(output).not.toContain("working");
    expect(output).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(output).not.toContain("\u001b");
  });
});
