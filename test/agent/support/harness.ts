/**
 * The set-up every agent integration test file shares: one mock LLM server for the file, and
 * every `shard agent` a test starts closed after that test (stdin EOF, SIGKILL if it hangs).
 */
import { afterEach, expect } from "bun:test";
import type { MockLlmServer } from "../../support/mock-llm/types.ts";
import { useMockLlmServer } from "../../support/mock-llm/use-mock-llm-server.ts";
import { type AgentOptions, AgentProcess } from "./agent-process.ts";

/** What a test may set on a new agent; `llmUrl` is always the file's mock server. */
export type AgentSpawnOptions = Omit<AgentOptions, "llmUrl">;

export interface AgentHarness {
  /** The file's mock LLM server (inside hooks and tests only). */
  llm(): MockLlmServer;
  /** Starts an agent and returns at once, before hello/sync: for start-up checks and refused starts. */
  start(opts?: AgentSpawnOptions): AgentProcess;
  /** Starts an agent and waits for its `sync`: ready for commands. */
  spawn(opts?: AgentSpawnOptions): Promise<AgentProcess>;
}

/**
 * Registers the hooks for this test file (call once, at the top level). `defaults` are spawn
 * options every agent of the file starts with (e.g. `--sandbox off` where a test is about the
 * process group of an unconfined command).
 */
export function useAgentHarness(defaults: AgentSpawnOptions = {}): AgentHarness {
  const llm = useMockLlmServer();
  const agents: AgentProcess[] = [];
  afterEach(async () => {
    const closing = agents.splice(0);
    await Promise.all(closing.map((agent) => agent.close()));
    // Contract check on every test: all the agent said matches the protocol schemas.
    expect(closing.flatMap((agent) => agent.schemaViolations)).toEqual([]);
  });
  const start = (opts: AgentSpawnOptions = {}): AgentProcess => {
    const agent = new AgentProcess({
      llmUrl: llm().url,
      ...defaults,
      ...opts,
      ...(defaults.args || opts.args ? { args: [...(defaults.args ?? []), ...(opts.args ?? [])] } : {}),
    });
    agents.push(agent);
    return agent;
  };
  const spawn = async (opts: AgentSpawnOptions = {}): Promise<AgentProcess> => {
    const agent = start(opts);
    await agent.waitType("sync");
    return agent;
  };
  return { llm, start, spawn };
}
