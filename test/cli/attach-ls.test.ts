/**
 * `shard ls` and `shard attach` against a real daemon with real agents on the mock model: the
 * list shows what the daemon has, and attach streams an agent's answer, asks its permission
 * prompts and UI dialogs on the terminal, and drops one another client answered first.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { SHARD_MAIN } from "../agent/support/agent-process.ts";
import { askBash } from "../daemon/support/ask-bash.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { LiveCli } from "./support/live-cli.ts";
import { collect, spawnShard } from "./support/shard-cli.ts";

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);
const clis: LiveCli[] = [];
afterEach(() => {
  for (const cli of clis.splice(0)) cli.kill();
});

function attach(home: string, ...args: string[]): LiveCli {
  const cli = new LiveCli(["attach", ...args], { HOME: home, SHARD_HOME: home });
  clis.push(cli);
  return cli;
}

describe("shard ls", () => {
  test("lists the daemon's agents as a table and as JSON", async () => {
    const h = await startHarness();
    const client = await h.unixClient();
    const id = await h.createAgent(client, { name: "builder" });
    const env = { SHARD_HOME: h.home };
    const table = await collect(spawnShard([process.execPath, SHARD_MAIN, "ls"], env));
    expect(table.code).toBe(0);
    expect(table.stdout.split("\n")[0]).toMatch(/^AGENT +NAME +STATUS +RUNTIME +MODEL +CWD$/);
    expect(table.stdout).toContain(id);
    expect(table.stdout).toContain("builder");
    const json = await collect(spawnShard([process.execPath, SHARD_MAIN, "ls", "--json"], env));
    const agents = JSON.parse(json.stdout);
    expect(agents.map((a: { agent_id: string }) => a.agent_id)).toEqual([id]);
  });

  test("without a daemon it says how to start one and exits 1", async () => {
    const ran = await collect(spawnShard([process.execPath, SHARD_MAIN, "ls"]));
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain("no daemon is running");
    expect(ran.stderr).toContain("shard daemon");
  });
});

/** A daemon with one agent that the test's client and a `shard attach` CLI both have open. */
async function attachedAgent() {
  const h = await startHarness();
  const client = await h.unixClient();
  const id = await h.createAgent(client);
  await client.ok({ type: "agent.attach", agent_id: id });
  const cli = attach(h.home, id);
  await cli.waitFor("stderr", "attached to");
  return { client, id, cli };
}

describe("shard attach", () => {
  test("streams the answer and answers a permission prompt typed on the terminal", async () => {
    const h = await startHarness();
    const client = await h.unixClient();
    const id = await h.createAgent(client, { name: "builder" });
    await client.ok({ type: "agent.attach", agent_id: id });
    const cli = attach(h.home, "builder");
    await cli.waitFor("stderr", `attached to builder (${id}`);

    const from = client.messages.length;
    await askBash(llm(), client, id, "echo attached-ok");
    await cli.waitFor("stderr", "? permission: bash");
    expect(cli.output.stderr).toContain("echo attached-ok");
    cli.writeLine("1");
    const resolved = await client.waitAgent(id, "permission_resolved", from);
    expect(resolved.source).toMatch(/^conn_/);
    await client.waitAgent(id, "turn_end", from);
    await cli.waitFor("stdout", "done");
    await cli.waitFor("stderr", "✓ bash echo attached-ok");

    cli.endInput();
    expect(await cli.exited).toBe(0);
  });

  test("a prompt answered by another client is dropped with a note", async () => {
    const h = await startHarness();
    const client = await h.unixClient();
    const id = await h.createAgent(client);
    await client.ok({ type: "agent.attach", agent_id: id });
    const cli = attach(h.home, id.slice(0, id.length - 2));
    await cli.waitFor("stderr", "attached to");
    const request = await askBash(llm(), client, id, "echo elsewhere");
    await cli.waitFor("stderr", "? permission: bash");
    const allowOnce = request.choices.find((c: { intent: string }) => c.intent === "allow").id;
    client.send({
      type: "permission_response",
      agent_id: id,
      request_id: request.request_id,
      choice_id: allowOnce,
    });
    await cli.waitFor("stderr", "permission answered from another client");
    // A typed line now is a prompt, not an answer to the dropped request.
    cli.writeLine("next question");
    const prompt = await client.waitAgent(
      id,
      "message_complete",
      0,
      (m) => m.message?.role === "user" && JSON.stringify(m.message).includes("next question"),
    );
    // Sent as typed: the line's text alone, not an answer and not the newline.
    expect(prompt.message.content).toEqual([{ type: "text", text: "next question" }]);
  });

  test("--observe never answers: typed digits do not resolve the request", async () => {
    const h = await startHarness();
    const client = await h.unixClient();
    const id = await h.createAgent(client);
    // The test's client is interactive and never answers: with only observers attached, the
    // headless policy would decide the request instead.
    await client.ok({ type: "agent.attach", agent_id: id });
    const cli = attach(h.home, id, "--observe");
    await cli.waitFor("stderr", "attached to");
    const from = client.messages.length;
    await askBash(llm(), client, id, "echo observed");
    await client.waitAgent(id, "status", from, (m) => m.status === "waiting_for_permission");
    await cli.waitFor("stderr", "waiting for permission");
    cli.writeLine("1");
    // Barrier: the CLI has read the line (it says it ignored it); the request is still open.
    await cli.waitFor("stderr", "observing: typed lines are ignored");
    const status = await client.ok({ type: "agent.status", agent_id: id });
    expect(status.agents[0].status).toBe("waiting_for_permission");
  });

  test("answers the ask tool's select by number and its input by text on the terminal", async () => {
    const { client, id, cli } = await attachedAgent();

    llm().enqueue(
      {
        steps: [
          { tool_call: { name: "ask", args: { question: "Which colour?", options: ["red", "blue"] } } },
        ],
      },
      { steps: [{ tool_call: { name: "ask", args: { question: "File name?" } } }] },
      { steps: [{ text: "noted" }] },
    );
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: id, message: "ask me" });
    await cli.waitFor("stderr", "? choose: Which colour?");
    expect(cli.output.stderr).toContain("2) blue");
    cli.writeLine("7"); // not an option: asked again, nothing sent
    cli.writeLine("2");
    const select = await client.waitAgent(id, "ui_resolved", from);
    expect(select.value).toBe("blue");

    await cli.waitFor("stderr", "? answer: File name?");
    cli.writeLine("notes.md");
    const input = await client.waitAgent(id, "ui_resolved", from, (m) => m.request_id !== select.request_id);
    expect(input.value).toBe("notes.md");
    await client.waitAgent(id, "turn_end", from);
    // The model got both answers back as the tools' results.
    const sent = JSON.stringify(llm().requests.at(-1)?.body.messages);
    expect(sent).toContain("blue");
    expect(sent).toContain("notes.md");
  });

  test("a dialog answered by another client is dropped with a note", async () => {
    const { client, id, cli } = await attachedAgent();
    llm().enqueue(
      { steps: [{ tool_call: { name: "ask", args: { question: "Proceed?", options: ["yes", "no"] } } }] },
      { steps: [{ text: "ok" }] },
    );
    const from = client.messages.length;
    await client.ok({ type: "prompt", agent_id: id, message: "ask me" });
    const request = await client.waitAgent(id, "ui_request", from);
    await cli.waitFor("stderr", "? choose: Proceed?");
    client.send({ type: "ui_response", agent_id: id, request_id: request.request_id, value: "no" });
    await cli.waitFor("stderr", "dialog answered from another client");
    await client.waitAgent(id, "turn_end", from);
  });

  test("an unknown agent is one clear line and exit 1", async () => {
    const h = await startHarness();
    const cli = attach(h.home, "no-such-agent");
    expect(await cli.exited).toBe(1);
    expect(cli.output.stderr).toContain('no agent "no-such-agent"');
  });
});
