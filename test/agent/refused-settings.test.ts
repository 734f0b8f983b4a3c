/** A setting the runtime refuses (unknown mode, model or tool) leaves no session behind. */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createRuntime, type RejectedSetting, type RuntimeConfig } from "../../src/agent/create-runtime.ts";
import { mockHome, tempDir } from "./support/agent-process.ts";

const sessionsIn = (home: string) =>
  existsSync(join(home, "sessions")) ? readdirSync(join(home, "sessions")) : [];

describe("createRuntime refusing a setting", () => {
  const cases: [string, Partial<RuntimeConfig>, RejectedSetting][] = [
    ["an unknown mode", { mode: "nope" }, "mode"],
    ["an unknown model", { model: "nope/x" }, "model"],
    ["an unknown tool", { tools: ["read", "nope"] }, "tools"],
  ];
  for (const [what, config, rejected] of cases) {
    test(`${what} is rejected and creates no session`, () => {
      const home = mockHome("http://127.0.0.1:9");
      const created = createRuntime({
        home,
        cwd: tempDir("refused"),
        env: {},
        serverVersion: "test",
        model: "mock/chat",
        ...config,
      });
      expect(created.ok).toBe(false);
      if (created.ok) return;
      expect(created.rejected).toBe(rejected);
      expect(sessionsIn(home)).toEqual([]);
    });
  }

  test("good settings create exactly one session", async () => {
    const home = mockHome("http://127.0.0.1:9");
    const created = createRuntime({
      home,
      cwd: tempDir("ok"),
      env: {},
      serverVersion: "test",
      model: "mock/chat",
    });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(sessionsIn(home)).toHaveLength(1);
    await created.value.runtime.close();
  });
});
