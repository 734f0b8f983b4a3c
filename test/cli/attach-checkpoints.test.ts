/**
 * `/checkpoints` and `/undo` typed into `shard attach` against a real daemon and agent on the
 * mock model: the list shows the turns that changed files, `/undo` puts the last turn's files
 * back, and a file the user changed since is named and kept when the answer is `n`.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DaemonClient } from "../daemon/support/daemon-client.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { LiveCli } from "./support/live-cli.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);
const clis: LiveCli[] = [];
afterEach(() => {
  for (const cli of clis.splice(0)) cli.kill();
});

/** One turn that writes `path`, every permission it asks allowed by the test's client. */
async function writeTurn(client: DaemonClient, id: string, path: string, content: string): Promise<void> {
  llm().enqueue({ steps: [{ tool_call: { name: "write", args: { path, content } } }, { text: "written" }] });
  const from = client.messages.length;
  const res = await client.request({ type: "prompt", agent_id: id, message: `write ${path}` });
  expect(res.success).toBe(true);
  let at = from;
  for (;;) {
    const next = await client.waitFor(
      (m) => m.agent_id === id && (m.type === "permission_request" || m.type === "turn_end"),
      at,
    );
    at = client.messages.indexOf(next) + 1;
    if (next.type === "turn_end") return;
    await client.ok({
      type: "permission_response",
      agent_id: id,
      request_id: next.request_id,
      choice_id: "allow_once",
    });
  }
}

async function setUp() {
  const h = await startHarness();
  const client = await h.unixClient();
  const id = await h.createAgent(client);
  await client.ok({ type: "agent.attach", agent_id: id });
  await writeTurn(client, id, "a.txt", "one\n");
  await writeTurn(client, id, "a.txt", "two\n");
  await writeTurn(client, id, "b.txt", "b\n");
  const cli = new LiveCli(["attach", id], { HOME: h.home, SHARD_HOME: h.home });
  clis.push(cli);
  await cli.waitFor("stderr", "attached to");
  const file = (name: string) => join(h.cwd, name);
  return { cli, file };
}

describe("shard attach: /checkpoints and /undo", () => {
  test("/checkpoints lists the turns, /undo restores the last turn's files", async () => {
    const { cli, file } = await setUp();
    cli.writeLine("/checkpoints");
    await cli.waitFor("stderr", /(turn .*1 file changed[\s\S]*){3}/);
    expect(cli.output.stderr.match(/^ {2}\S+ {2}turn \S+ {2}.+ {2}1 file changed$/gm)?.length).toBe(3);

    cli.writeLine("/undo");
    await cli.waitFor("stderr", "/undo: restored the files to before the last turn (b.txt)");
    expect(existsSync(file("b.txt"))).toBe(false);
    expect(readFileSync(file("a.txt"), "utf8")).toBe("two\n");
  });

  test("/undo names a file changed since; n keeps it, y overwrites it", async () => {
    const { cli, file } = await setUp();
    writeFileSync(file("b.txt"), "the user's edit\n");
    cli.writeLine("/undo");
    await cli.waitFor("stderr", "/undo: changed since the agent's last turn: b.txt\noverwrite? [y/N]");
    cli.writeLine("n");
    await cli.waitFor("stderr", "/undo: not restored");
    expect(readFileSync(file("b.txt"), "utf8")).toBe("the user's edit\n");

    cli.writeLine("/undo");
    await cli.waitFor("stderr", /overwrite\? \[y\/N\][\s\S]*overwrite\? \[y\/N\]/);
    cli.writeLine("y");
    await cli.waitFor("stderr", "/undo: restored the files to before the last turn (b.txt)");
    expect(existsSync(file("b.txt"))).toBe(false);
  });
});
