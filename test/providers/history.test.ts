/** History → each API's request body, checked through what the mock server actually received. */
import { describe, expect, test } from "bun:test";
import type { ProviderApi, ProviderToolSpec } from "../../src/contracts/provider.ts";
import type { Message } from "../../src/types/messages.ts";
import { sentToolCallIds } from "../support/mock-llm/repeated-tool-ids.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { collect, mockProvider, request } from "./helpers.ts";

const PNG = { type: "image" as const, data: "iVBORw0KGgo=", mime_type: "image/png" };
const JPEG = { type: "image" as const, data: "/9j/4AAQ", mime_type: "image/jpeg" };

const HISTORY: Message[] = [
  {
    id: "m1",
    role: "user",
    content: [{ type: "text", text: "Fix the bug" }, JPEG],
  },
  {
    id: "m2",
    role: "assistant",
    content: [
      { type: "thinking", text: "The bug is in a.ts", signature: "sig-1" },
      { type: "text", text: "Let me look." },
      { type: "tool_call", id: "t1", name: "read", args: { path: "a.png" } },
      { type: "tool_call", id: "t2", name: "bash", args: { command: "make test" } },
    ],
  },
  {
    id: "m3",
    role: "user",
    content: [
      {
        type: "tool_result",
        tool_call_id: "t1",
        content: { kind: "text", text: "image file" },
        images: [PNG],
      },
    ],
  },
  {
    id: "m4",
    role: "user",
    content: [
      {
        type: "tool_result",
        tool_call_id: "t2",
        content: { kind: "text", text: "FAIL" },
        is_error: true,
        exit_code: 2,
      },
    ],
  },
  { id: "m5", role: "user", content: [{ type: "text", text: "also check the tests" }] },
  { id: "m6", role: "assistant", content: [{ type: "text", text: "Done." }] },
  { id: "m7", role: "user", content: [{ type: "text", text: "thanks" }] },
];

const TOOLS: ProviderToolSpec[] = [
  {
    name: "read",
    description: "Read a file",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

const server = useMockLlmServer({ clearRequestsBeforeEach: true });

async function sentBody(api: ProviderApi, reasoning?: string, messages: Message[] = HISTORY) {
  const levels = [
    { id: "low", label: "Low" },
    { id: "high", label: "High" },
  ];
  const provider = mockProvider(server(), api, {
    spec: { reasoning: true, reasoning_levels: levels, max_output: 32_000 },
  });
  const events = await collect(
    provider.stream(request({ messages, tools: TOOLS, system: "SYS", ...(reasoning ? { reasoning } : {}) })),
  );
  expect(events.at(-1)?.type).toBe("done");
  expect(server().requests).toHaveLength(1);
  return server().requests[0]!;
}

/** The stream ended in an error naming `why`, with no retry and nothing sent to the server. */
function expectRefusedBeforeSending(events: { type: string }[], why: string): void {
  expect(events.at(-1)).toMatchObject({ type: "error", message: expect.stringContaining(why) });
  expect(events.some((e) => e.type === "retry")).toBe(false);
  expect(server().requests).toHaveLength(0);
}

describe("anthropic-messages", () => {
  test("tool results merge into one user message; exit code text; images; signed thinking replayed", async () => {
    const req = await sentBody("anthropic-messages");
    expect(req.path).toBe("/v1/messages");
    // This SDK version sends the API key as a bearer token.
    expect(req.headers["x-api-key"] ?? req.headers.authorization).toMatch(/^(Bearer )?test-key$/);
    const body = req.body;
    expect(body.stream).toBe(true);
    expect(body.system[0].text).toBe("SYS");
    expect(body.tools).toEqual([
      expect.objectContaining({
        name: "read",
        description: "Read a file",
        input_schema: TOOLS[0]!.parameters,
      }),
    ]);
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
    expect(body.messages[0].content[1]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/jpeg", data: JPEG.data },
    });
    expect(body.messages[1].content).toEqual([
      { type: "thinking", thinking: "The bug is in a.ts", signature: "sig-1" },
      { type: "text", text: "Let me look." },
      { type: "tool_use", id: "t1", name: "read", input: { path: "a.png" } },
      { type: "tool_use", id: "t2", name: "bash", input: { command: "make test" } },
    ]);
    const merged = body.messages[2].content;
    expect(merged.map((b: { type: string }) => b.type)).toEqual(["tool_result", "tool_result", "text"]);
    expect(merged[0]).toMatchObject({
      tool_use_id: "t1",
      content: [
        { type: "text", text: "image file" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG.data } },
      ],
    });
    expect(merged[1]).toMatchObject({
      tool_use_id: "t2",
      is_error: true,
      content: [{ type: "text", text: "FAIL\n[exit code: 2]" }],
    });
    expect(merged[2]).toEqual({ type: "text", text: "also check the tests" });
    expect(body.thinking).toBeUndefined();
  });

  test("reasoning effort becomes a thinking budget below max_tokens", async () => {
    const { body } = await sentBody("anthropic-messages", "high");
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 24576 });
    expect(body.max_tokens).toBe(32_000);
  });

  test("unsigned thinking (from another provider) is not replayed", async () => {
    const provider = mockProvider(server(), "anthropic-messages");
    const messages: Message[] = [
      { id: "a", role: "user", content: [{ type: "text", text: "q" }] },
      {
        id: "b",
        role: "assistant",
        content: [
          { type: "thinking", text: "unsigned" },
          { type: "text", text: "answer" },
        ],
      },
      { id: "c", role: "user", content: [{ type: "text", text: "next" }] },
    ];
    await collect(provider.stream(request({ messages })));
    expect(server().requests[0]!.body.messages[1].content).toEqual([{ type: "text", text: "answer" }]);
  });

  test("an image of a type the API does not take goes as a note in its place, so the turn (and the next) still works", async () => {
    const provider = mockProvider(server(), "anthropic-messages");
    const svg = { type: "image" as const, data: "PHN2Zz4=", mime_type: "image/svg+xml" };
    const messages: Message[] = [{ id: "a", role: "user", content: [{ type: "text", text: "q" }, svg] }];
    const events = await collect(provider.stream(request({ messages })));
    expect(events.at(-1)?.type).toBe("done");
    const sent = server().requests[0]?.body;
    expect(JSON.stringify(sent)).not.toContain("PHN2Zz4=");
    expect(sent?.messages?.[0]?.content?.[1]).toMatchObject({
      type: "text",
      text: "[a image/svg+xml image was left out: the Anthropic Messages API takes only image/jpeg, image/png, image/gif, image/webp]",
    });
  });
});

describe("openai-completions", () => {
  test("one tool message per result, tool images as a following user message, exit code text", async () => {
    const req = await sentBody("openai-completions");
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer test-key");
    const body = req.body;
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.reasoning_effort).toBeUndefined();
    expect(body.tools).toEqual([
      {
        type: "function",
        function: { name: "read", description: "Read a file", parameters: TOOLS[0]!.parameters },
      },
    ]);
    expect(body.messages).toEqual([
      { role: "system", content: "SYS" },
      {
        role: "user",
        content: [
          { type: "text", text: "Fix the bug" },
          { type: "image_url", image_url: { url: `data:image/jpeg;base64,${JPEG.data}` } },
        ],
      },
      {
        role: "assistant",
        content: "Let me look.",
        tool_calls: [
          { id: "t1", type: "function", function: { name: "read", arguments: '{"path":"a.png"}' } },
          { id: "t2", type: "function", function: { name: "bash", arguments: '{"command":"make test"}' } },
        ],
      },
      { role: "tool", tool_call_id: "t1", content: "image file" },
      {
        role: "user",
        content: [
          { type: "text", text: "Images from the tool results above:" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG.data}` } },
        ],
      },
      { role: "tool", tool_call_id: "t2", content: "FAIL\n[exit code: 2]" },
      { role: "user", content: "also check the tests" },
      { role: "assistant", content: "Done." },
      { role: "user", content: "thanks" },
    ]);
  });

  test("reasoning effort is sent as reasoning_effort", async () => {
    const { body } = await sentBody("openai-completions", "high");
    expect(body.reasoning_effort).toBe("high");
  });
});

describe("openai-responses", () => {
  test("function calls and outputs as items, tool images as a user message, exit code text", async () => {
    const req = await sentBody("openai-responses");
    expect(req.path).toBe("/v1/responses");
    const body = req.body;
    expect(body.instructions).toBe("SYS");
    expect(body.store).toBe(false);
    expect(body.tools).toEqual([
      {
        type: "function",
        name: "read",
        description: "Read a file",
        parameters: TOOLS[0]!.parameters,
        strict: false,
      },
    ]);
    const types = body.input.map((i: { type?: string; role?: string }) => i.type ?? i.role);
    expect(types).toEqual([
      "user",
      "assistant",
      "function_call",
      "function_call",
      "function_call_output",
      "user",
      "function_call_output",
      "user",
      "assistant",
      "user",
    ]);
    expect(body.input[2]).toEqual({
      type: "function_call",
      call_id: "t1",
      name: "read",
      arguments: '{"path":"a.png"}',
    });
    expect(body.input[4]).toEqual({ type: "function_call_output", call_id: "t1", output: "image file" });
    expect(body.input[5].content[1]).toEqual({
      type: "input_image",
      image_url: `data:image/png;base64,${PNG.data}`,
      detail: "auto",
    });
    expect(body.input[6]).toEqual({
      type: "function_call_output",
      call_id: "t2",
      output: "FAIL\n[exit code: 2]",
    });
  });

  test("reasoning effort is sent with a summary request", async () => {
    const { body } = await sentBody("openai-responses", "low");
    expect(body.reasoning).toEqual({ effort: "low", summary: "auto" });
  });
});

describe("a reasoning level that is not an OpenAI effort", () => {
  for (const api of ["openai-completions", "openai-responses"] as const) {
    test(`${api}: is a clear error, and nothing is sent`, async () => {
      const provider = mockProvider(server(), api, {
        spec: { reasoning: true, reasoning_levels: [{ id: "turbo", label: "Turbo" }], max_output: 32_000 },
      });
      expectRefusedBeforeSending(
        await collect(provider.stream(request({ reasoning: "turbo" }))),
        'reasoning level "turbo" is not an OpenAI reasoning effort (one of none, minimal, low, medium, high, xhigh, max)',
      );
    });
  }
});

/** A call the runtime named `id` and the server `call_0`, and its result saying `text`. */
function callWithResult(id: string, name: string, text: string): Message[] {
  return [
    {
      id: `${id}-call`,
      role: "assistant",
      content: [{ type: "tool_call", id, provider_id: "call_0", name, args: {} }],
    },
    {
      id: `${id}-result`,
      role: "user",
      content: [{ type: "tool_result", tool_call_id: id, content: { kind: "text", text } }],
    },
  ];
}

/**
 * Two calls the runtime named `tc_first` and `tc_second`, which the server had both called
 * `call_0` (servers that number their calls per response).
 */
const REPEATED_IDS: Message[] = [
  { id: "r1", role: "user", content: [{ type: "text", text: "list, then grep" }] },
  ...callWithResult("tc_first", "ls", "a.ts"),
  ...callWithResult("tc_second", "grep", "none"),
];

describe("tool-call ids sent back to the model", () => {
  for (const api of ["anthropic-messages", "openai-completions", "openai-responses"] as const) {
    test(`${api}: each call and its result carry the id the server gave, not the runtime's`, async () => {
      const { body } = await sentBody(api, undefined, REPEATED_IDS);
      expect(sentToolCallIds(body)).toEqual(["call_0", "call_0", "call_0", "call_0"]);
    });
  }
});
