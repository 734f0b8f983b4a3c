/** OpenAI Responses API: typed streaming events, as the real API sends them. */
import { encodeSteps, namedEvent, splitChunks, stopOf, toolArgsText, usageOf } from "./sse-frames.ts";
import type { MockReply, Segment } from "./types.ts";

let responseCounter = 0;

export function* responsesFrames(reply: MockReply, model: string): Generator<Segment> {
  const id = `resp_mock_${++responseCounter}`;
  let seq = 0;
  const ev = (type: string, data: Record<string, unknown>) =>
    namedEvent(type, { type, sequence_number: seq++, ...data });
  const base = {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model,
    output: [] as unknown[],
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    error: null,
    incomplete_details: null,
  };
  yield ev("response.created", { response: { ...base, status: "in_progress" } });
  yield ev("response.in_progress", { response: { ...base, status: "in_progress" } });
  const output: unknown[] = [];
  const finished = yield* encodeSteps(reply, function* (step) {
    const output_index = output.length;
    if ("text" in step) {
      const item_id = `msg_mock_${id}_${output_index}`;
      const pending = { id: item_id, type: "message", role: "assistant", status: "in_progress", content: [] };
      yield ev("response.output_item.added", { output_index, item: pending });
      const part = { type: "output_text", text: "", annotations: [] };
      yield ev("response.content_part.added", { item_id, output_index, content_index: 0, part });
      for (const delta of splitChunks(step.text, step.chunks)) {
        yield ev("response.output_text.delta", {
          item_id,
          output_index,
          content_index: 0,
          delta,
          logprobs: [],
        });
      }
      yield ev("response.output_text.done", {
        item_id,
        output_index,
        content_index: 0,
        text: step.text,
        logprobs: [],
      });
      const donePart = { type: "output_text", text: step.text, annotations: [] };
      yield ev("response.content_part.done", { item_id, output_index, content_index: 0, part: donePart });
      const item = { ...pending, status: "completed", content: [donePart] };
      output.push(item);
      yield ev("response.output_item.done", { output_index, item });
    } else if ("thinking" in step) {
      const item_id = `rs_mock_${id}_${output_index}`;
      yield ev("response.output_item.added", {
        output_index,
        item: { id: item_id, type: "reasoning", summary: [] },
      });
      const part = { type: "summary_text", text: "" };
      yield ev("response.reasoning_summary_part.added", { item_id, output_index, summary_index: 0, part });
      for (const delta of splitChunks(step.thinking, step.chunks)) {
        yield ev("response.reasoning_summary_text.delta", { item_id, output_index, summary_index: 0, delta });
      }
      yield ev("response.reasoning_summary_text.done", {
        item_id,
        output_index,
        summary_index: 0,
        text: step.thinking,
      });
      const donePart = { type: "summary_text", text: step.thinking };
      yield ev("response.reasoning_summary_part.done", {
        item_id,
        output_index,
        summary_index: 0,
        part: donePart,
      });
      const item = { id: item_id, type: "reasoning", summary: [donePart] };
      output.push(item);
      yield ev("response.output_item.done", { output_index, item });
    } else {
      const call = step.tool_call;
      const item_id = `fc_mock_${id}_${output_index}`;
      const call_id = call.id ?? `call_mock_${id}_${output_index}`;
      const args = toolArgsText(call.args);
      const pending = {
        id: item_id,
        type: "function_call",
        status: "in_progress",
        call_id,
        name: call.name,
        arguments: "",
      };
      yield ev("response.output_item.added", { output_index, item: pending });
      for (const delta of splitChunks(args, call.chunks)) {
        yield ev("response.function_call_arguments.delta", { item_id, output_index, delta });
      }
      yield ev("response.function_call_arguments.done", { item_id, output_index, arguments: args });
      const item = { ...pending, status: "completed", arguments: args };
      output.push(item);
      yield ev("response.output_item.done", { output_index, item });
    }
  });
  if (!finished) return;
  const u = usageOf(reply);
  const usage = {
    input_tokens: u.input + u.cache_read,
    input_tokens_details: { cached_tokens: u.cache_read },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.input + u.cache_read + u.output,
  };
  if (stopOf(reply) === "max_tokens") {
    const response = {
      ...base,
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      output,
      usage,
    };
    yield ev("response.incomplete", { response });
  } else {
    yield ev("response.completed", { response: { ...base, status: "completed", output, usage } });
  }
}
