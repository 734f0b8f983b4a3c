/**
 * `shard rm` against a real daemon with real agents on the mock model: it deletes by id, unique
 * prefix or name, takes the session with --session, and says clearly what it could not do.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SHARD_MAIN } from "../agent/support/agent-process.ts";
import type { Msg } from "../daemon/support/daemon-client.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { collect, spawnShard } from "./support/shard-cli.ts";

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);

const rm = (home: string, ...args: string[]) =>
  collect(spawnShard([process.execPath, SHARD_MAIN, "rm", ...args], { SHARD_HOME: home }));

const sessionOf = (home: string, agentId: string): string =>
  JSON.parse(readFileSync(join(home, "agents", agentId, "manifest.json"), "utf8")).session_id;

describe("shard rm", () => {
  test("deletes by name, by unique prefix and by id; --session takes the session too", async () => {
    const h = await startHarness();
    const client = await h.unixClient();
    const byName = await h.createAgent(client, { name: "scratch" });
    const byId = await h.createAgent(client);
    const withSession = await h.createAgent(client, { name: "throwaway" });
    const keptSession = sessionOf(h.home, byName);
    const droppedSession = sessionOf(h.home, withSession);

    const named = await rm(h.home, "scratch");
    expect(named.code).toBe(0);
    expect(named.stdout).toBe(`deleted scratch (${byName})\n`);
    const exact = await rm(h.home, byId);
    expect(exact.code).toBe(0);
    const prefixed = await rm(h.home, withSession.slice(0, -2), "--session");
    expect(prefixed.code).toBe(0);
    expect(prefixed.stdout).toContain("and its session");

    expect((await client.ok({ type: "agent.list" })).agents).toEqual([]);
    expect(existsSync(join(h.home, "sessions", keptSession))).toBe(true);
    expect(existsSync(join(h.home, "sessions", droppedSession))).toBe(false);
    const sessions = (await client.ok({ type: "session.list" })).sessions.map((s: Msg) => s.session_id);
    expect(sessions).not.toContain(droppedSession);
  });

  test("an unknown or ambiguous agent, a missing argument, no daemon: a clear error and exit 1 or 2", async () => {
    const h = await startHarness();
    const client = await h.unixClient();
    await h.createAgent(client, { name: "twin" });
    await h.createAgent(client, { name: "twin" });

    const unknown = await rm(h.home, "nobody");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no agent "nobody"');
    const ambiguous = await rm(h.home, "twin");
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain("matches several agents");
    expect((await client.ok({ type: "agent.list" })).agents).toHaveLength(2);

    const missing = await rm(h.home);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("name one agent");
    const noDaemon = await collect(spawnShard([process.execPath, SHARD_MAIN, "rm", "x"]));
    expect(noDaemon.code).toBe(1);
    expect(noDaemon.stderr).toContain("no daemon is running");
  });
});
