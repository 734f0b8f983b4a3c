/** pi (`@mariozechner/pi-coding-agent`) in `--mode rpc`, on a private HOME whose models.json points at the mock. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Child } from "./child.ts";
import { LineScanner } from "./lines.ts";
import { piLine } from "./stream-events.ts";
import { EventWaiter, type ToolDriver } from "./tool.ts";

export interface PiSetup {
  bin: string;
  version: string;
  home: string;
  cwd: string;
  llmUrl: string;
}

/** pi's custom provider for an OpenAI-compatible server (docs/models.md of the package). */
export function piModelsJson(llmUrl: string): object {
  return {
    providers: {
      mock: {
        baseUrl: `${llmUrl}/v1`,
        api: "openai-completions",
        apiKey: "bench",
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [
          {
            id: "chat",
            reasoning: false,
            contextWindow: 1_000_000,
            maxTokens: 4096,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          },
        ],
      },
    },
  };
}

export function piTool(setup: PiSetup): ToolDriver {
  const agentDir = join(setup.home, ".pi", "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "models.json"), JSON.stringify(piModelsJson(setup.llmUrl)));
  const args = ["--mode", "rpc", "--provider", "mock", "--model", "chat"];
  return {
    id: "pi",
    label: `pi ${setup.version}`,
    version: setup.version,
    command: `pi ${args.join(" ")} (PI_OFFLINE=1, private HOME)`,
    readCall: (file) => ({ name: "read", args: { path: file } }),
    async start(timeoutMs) {
      const child = new Child([setup.bin, ...args], {
        cwd: setup.cwd,
        env: { ...process.env, HOME: setup.home, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" },
      });
      const waiter = new EventWaiter(child.died);
      const scanner = new LineScanner((line) => waiter.take(piLine(line)));
      void (async () => {
        for await (const chunk of child.proc.stdout) scanner.push(chunk);
      })();
      let nextId = 0;
      const request = async (command: Record<string, unknown>, ms: number) => {
        const id = `bench-${++nextId}`;
        const answer = waiter.until((e) => e.type === "response" && e.id === id, ms, `for ${command.type}`);
        child.proc.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
        child.proc.stdin.flush();
        const response = await answer;
        if (response.success !== true) throw new Error(`${command.type}: ${JSON.stringify(response.error)}`);
        return response;
      };
      try {
        await request({ type: "get_state" }, timeoutMs);
      } catch (err) {
        await child.stop();
        throw err;
      }
      return {
        rootPid: child.pid,
        async turn(prompt, ms) {
          const before = waiter.deltas;
          const end = waiter.until((e) => e.type === "agent_end", ms, "for agent_end");
          await request({ type: "prompt", message: prompt }, ms);
          const done = await end;
          const failed = assistantError(done);
          if (failed) throw new Error(`pi: ${failed}`);
          return { deltas: waiter.deltas - before };
        },
        async close() {
          child.proc.stdin.end();
          await child.stop(3000);
        },
      };
    },
  };
}

/** pi reports a failed provider call as an assistant message with stopReason "error". */
function assistantError(agentEnd: Record<string, unknown>): string | undefined {
  const messages = Array.isArray(agentEnd.messages) ? agentEnd.messages : [];
  for (const m of messages) {
    const message = m as { role?: unknown; stopReason?: unknown; errorMessage?: unknown };
    if (message.role === "assistant" && message.stopReason === "error")
      return String(message.errorMessage ?? "provider error");
  }
  return undefined;
}
