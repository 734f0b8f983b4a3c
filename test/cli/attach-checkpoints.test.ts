/**
 * `/checkpoints`, `/undo`, `/rewind` and `/restore` typed into `shard attach` against a real
 * daemon and agent on the mock model: the list shows the turns that changed files, `/undo` puts
 * the last turn's files back and, typed again, goes one turn further back; a file the user
 * changed since is named and kept when the answer is `n`; `/restore <id prefix>` restores one
 * checkpoint; `/rewind` also rewinds the conversation (the next provider request shows it).
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
  const res = await client.request({
    type: "prompt",
    agent_id: id,
    message: `PROMPT write ${path} ${content}`,
  });
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
  return { cli, file, client, id };
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

  test("/undo typed again goes one turn further back; /restore takes an id prefix", async () => {
    const { cli, file } = await setUp();
    cli.writeLine("/undo");
    await cli.waitFor("stderr", "/undo: restored the files to before the last turn (b.txt)");
    cli.writeLine("/undo");
    await cli.waitFor("stderr", "/undo: restored the files to before the last 2 turns (a.txt)");
    expect(readFileSync(file("a.txt"), "utf8")).toBe("one\n");
    cli.writeLine("/undo");
    await cli.waitFor("stderr", "/undo: restored the files to before the last 3 turns (a.txt)");
    expect(existsSync(file("a.txt"))).toBe(false);
    cli.writeLine("/undo");
    await cli.waitFor("stderr", "/undo: no older checkpoint is kept; nothing restored");

    // The newest checkpoint is the last /undo's own: restoring it by prefix redoes that /undo.
    cli.writeLine("/checkpoints");
    await cli.waitFor("stderr", /^ {2}\S+ {2}restore /m);
    // The listing's first line is the newest checkpoint.
    const newest = /^ {2}(\S+) {2}restore /m.exec(cli.output.stderr)?.[1];
    if (newest === undefined) throw new Error("a restore checkpoint expected");
    cli.writeLine(`/restore ${newest.slice(0, 10)}`);
    await cli.waitFor("stderr", `/restore: restored the files to checkpoint ${newest.slice(0, 12)} (a.txt)`);
    expect(readFileSync(file("a.txt"), "utf8")).toBe("one\n");
    cli.writeLine("/restore zzzz");
    await cli.waitFor("stderr", "/restore: zzzz is no checkpoint; /checkpoints lists them");
  });

  test("/rewind puts back the files and the conversation, one turn further each time", async () => {
    const { cli, file, client, id } = await setUp();
    cli.writeLine("/rewind");
    await cli.waitFor(
      "stderr",
      /\/rewind: restored the files and the conversation to before the last turn \(b\.txt\); the agent continues in session ses_\S+/,
    );
    cli.writeLine("/rewind");
    await cli.waitFor(
      "stderr",
      /\/rewind: restored the files and the conversation to before the last 2 turns \(a\.txt\)/,
    );
    expect(readFileSync(file("a.txt"), "utf8")).toBe("one\n");
    expect(existsSync(file("b.txt"))).toBe(false);

    llm().enqueue({ steps: [{ text: "after the rewind" }] });
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: id, message: "PROMPT after" });
    await client.waitAgent(id, "turn_end", from);
    const sent = JSON.stringify(llm().requests.at(-1)?.body);
    expect(sent).toContain("PROMPT write a.txt one");
    expect(sent).toContain("PROMPT after");
    expect(sent).not.toContain("PROMPT write a.txt two");
    expect(sent).not.toContain("PROMPT write b.txt");
  });
});
