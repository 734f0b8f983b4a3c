/**
 * A tool that ignores its abort signal cannot hold a turn (and so `abort`) hostage: the tool
 * runner abandons it ABORT_GRACE_MS after the abort and records an error result. The tool here
 * never settles until the test releases it, so the only way the call ends is the grace rule.
 */
import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { ABORT_GRACE_MS, runToolCall } from "../../../src/agent/turn/tool-runner.ts";
import type { AnyTool, ToolResult } from "../../../src/contracts/tool.ts";
import { createPermissionGate } from "../../../src/permissions/gate.ts";
import { textResult } from "../../../src/tools/tool-result.ts";
import type { UnsequencedAgentEvent } from "../../../src/types/catalog.ts";
import type { Message } from "../../../src/types/messages.ts";
import { tempDir } from "../support/agent-process.ts";

describe("a tool that ignores abort", () => {
  test("is abandoned after the grace period with an error result, and the history stays valid", async () => {
    let release!: (r: ToolResult) => void;
    let started!: () => void;
    const running = new Promise<void>((r) => {
      started = r;
    });
    const stubborn: AnyTool = {
      name: "stubborn",
      description: "never stops on abort",
      parameters: Type.Object({}),
      isReadOnly: true,
      execute: () => {
        started();
        return new Promise<ToolResult>((r) => {
          release = r;
        });
      },
    };
    const events: UnsequencedAgentEvent[] = [];
    const persisted: Message[] = [];
    const abort = new AbortController();
    const cwd = tempDir("grace");
    const call = runToolCall(
      { block: { type: "tool_call", id: "call_1", name: "stubborn", args: {} } },
      {
        tools: new Map([["stubborn", stubborn]]),
        gate: createPermissionGate({ home: tempDir("grace-home"), cwd }),
        ask: async () => ({ kind: "cancelled", reason: "no one" }),
        askUser: async () => null,
        cwd,
        mode: () => ({ name: "build", denyMutating: false }),
        emit: (e) => events.push(e),
        persist: (m) => persisted.push(m),
        recordPermissionWait: () => {},
        newId: (p) => `${p}_1`,
      },
      abort.signal,
    );
    await running;
    abort.abort();
    await call;
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({
      type: "tool_result",
      tool_call_id: "call_1",
      is_error: true,
      message_id: "msg_1",
      content: {
        kind: "error",
        message: `aborted: stubborn did not stop within ${ABORT_GRACE_MS} ms and was abandoned`,
      },
    });
    expect(persisted).toHaveLength(1);
    // A late settle of the abandoned tool changes nothing.
    release(textResult("too late"));
    await Promise.resolve();
    expect(events.filter((e) => e.type === "tool_result")).toHaveLength(1);
  });
});
