/**
 * `run(prompt, { outputSchema })` against a real `shard agent` on the mock LLM: the answer is
 * parsed and validated (TypeBox and plain JSON Schema), one repair turn quotes the errors, and an
 * answer still invalid after it is a typed `OutputValidationError`.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import type { Agent } from "../../sdk/src/agent.ts";
import { spawnAgent } from "../../sdk/src/direct.ts";
import { ShardError } from "../../sdk/src/errors.ts";
import { OutputValidationError } from "../../sdk/src/structured-output.ts";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

// Real agent processes on a machine shared with other work.
setDefaultTimeout(60_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true });
const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

async function start(): Promise<Agent> {
  const agent = await spawnAgent({
    home: mockHome(llm().url),
    cwd: tempDir("cwd"),
    model: "mock/chat",
    env: { ...CHILD_ENV, SHARD_RETRY_BASE_MS: "5" },
  });
  agents.push(agent);
  return agent;
}

const Verdict = Type.Object(
  {
    verdict: Type.Union([Type.Literal("pass"), Type.Literal("fail")]),
    failures: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/** The text of every user message the model was sent in request `index`. */
function userTexts(index: number): string {
  const messages: { role: string; content: unknown }[] = llm().requests[index]?.body.messages ?? [];
  return JSON.stringify(messages.filter((m) => m.role === "user").map((m) => m.content));
}

describe("structured output", () => {
  test("a valid first answer (in a ```json fence) is parsed into typed output; the prompt carries the schema", async () => {
    const agent = await start();
    llm().enqueue({ steps: [{ text: '```json\n{"verdict": "fail", "failures": 2}\n```' }] });
    const result = await agent.run("did the tests pass?", { outputSchema: Verdict });
    const failures: number = result.output.failures; // typed as Static<typeof Verdict>
    expect(result.output).toEqual({ verdict: "fail", failures: 2 });
    expect(failures).toBe(2);
    expect(llm().requests).toHaveLength(1);
    const sent = userTexts(0);
    expect(sent).toContain("did the tests pass?");
    expect(sent).toContain("exactly one JSON object");
    expect(sent).toContain("additionalProperties");
  });

  test("an invalid answer gets one repair turn quoting the errors, and the repaired answer is returned", async () => {
    const agent = await start();
    llm().enqueue(
      { steps: [{ text: 'Sure! {"verdict": "maybe"}' }], usage: { input: 10, output: 3 } },
      { steps: [{ text: '{"verdict": "pass", "failures": 0}' }], usage: { input: 20, output: 4 } },
    );
    const result = await agent.run("did the tests pass?", { outputSchema: Verdict });
    expect(result.output).toEqual({ verdict: "pass", failures: 0 });
    expect(result.usage.input).toBe(30);
    expect(llm().requests).toHaveLength(2);
    const repair = userTexts(1);
    expect(repair).toContain("does not validate");
    expect(repair).toContain("not JSON");
  });

  test("a plain JSON Schema is really validated: a wrong type is repaired once, then a typed error", async () => {
    const agent = await start();
    const schema = {
      type: "object",
      properties: { files: { type: "array", items: { type: "string" } }, total: { type: "integer" } },
      required: ["files", "total"],
    };
    llm().enqueue(
      { steps: [{ text: '{"files": ["a.ts", 3], "total": 2}' }] },
      { steps: [{ text: '{"files": ["a.ts"], "total": "one"}' }] },
    );
    const failure = await agent
      .run("which files changed?", { outputSchema: schema })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OutputValidationError);
    expect(failure).toBeInstanceOf(ShardError);
    const error = failure as OutputValidationError;
    expect(error.code).toBe("PROVIDER_ERROR");
    expect(error.issues).toContainEqual({ path: "/total", message: "Expected integer" });
    expect(error.text).toBe('{"files": ["a.ts"], "total": "one"}');
    expect(userTexts(1)).toContain("/files/1");
    expect(llm().requests).toHaveLength(2);
  });

  test("a JSON Schema keyword the checker cannot enforce is refused before anything is sent", async () => {
    const agent = await start();
    const failure = await agent
      .run("anything", { outputSchema: { type: "object", patternProperties: { x: { type: "string" } } } })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "INVALID_REQUEST" });
    expect((failure as ShardError).message).toContain("patternProperties");
    expect(llm().requests).toHaveLength(0);
  });
});
