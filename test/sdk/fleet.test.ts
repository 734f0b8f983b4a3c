/**
 * One client, several daemons (one per machine): their agents listed together, each tagged
 * with its daemon; a daemon that stopped answering is reported beside the list.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ShardFleet } from "../../sdk/src/fleet.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { readUntil } from "./support/read-until.ts";

// Real agent processes and daemons on a machine shared with other work.
setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startDaemon = useDaemonHarnesses(llm);

describe("fleet", () => {
  test("lists the agents of every daemon together and drives one on each", async () => {
    const [alpha, beta] = await Promise.all([startDaemon(), startDaemon()]);
    const fleet = new ShardFleet();
    const a = await fleet.add("alpha", { socketPath: alpha.socketPath });
    const b = await fleet.add("beta", { socketPath: beta.socketPath });
    const onAlpha = await a.createAgent({ cwd: alpha.cwd, model: "mock/chat", name: "a1" });
    const onBeta = await b.createAgent({ cwd: beta.cwd, model: "mock/chat", name: "b1" });

    const { agents, unreachable } = await fleet.listAgents();
    expect(unreachable).toEqual([]);
    expect(agents.map((x) => [x.daemon, x.agent_id, x.name])).toEqual([
      ["alpha", onAlpha.id, "a1"],
      ["beta", onBeta.id, "b1"],
    ]);
    const results = await Promise.all([onAlpha.run("hello alpha"), onBeta.run("hello beta")]);
    expect(results.every((r) => r.text.length > 0)).toBe(true);

    const notices = b.events();
    await beta.daemon.stop(true);
    await readUntil(notices, (n) => n.type === "connection_lost");
    const partial = await fleet.listAgents();
    expect(partial.agents.map((x) => x.daemon)).toEqual(["alpha"]);
    expect(partial.unreachable.map((u) => [u.daemon, u.error.code])).toEqual([["beta", "NOT_ATTACHED"]]);
    fleet.close();
  });
});
