/**
 * A stand-in runtime for the latency benchmark: it speaks just enough of the per-agent protocol
 * (hello, sync, prompt → response, then a turn) and stamps each text delta with the wall-clock
 * time it was written, so a client can tell how long the event took to reach it.
 *   bun bench/support/clock-runtime.ts agent … (the daemon's runtime arguments are ignored)
 */
import { JsonlDecoder } from "../../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../../src/wire/jsonl-encoder.ts";

const EVENTS = Number(process.env.CLOCK_EVENTS ?? 2000);
const PER_TICK = 4;
const now = () => performance.timeOrigin + performance.now();
const write = (m: object) => process.stdout.write(encodeJsonLine(m));

write({
  type: "hello",
  protocol_version: "0.1.0",
  server_version: "clock",
  capabilities: ["streaming-deltas"],
});
write({ type: "sync", status: "idle", mode: "build", live_window: { messages: [] }, pending_requests: [] });

async function turn(): Promise<void> {
  write({ type: "turn_start", turn_id: "turn_clock" });
  for (let sent = 0; sent < EVENTS; ) {
    for (let i = 0; i < PER_TICK && sent < EVENTS; i++, sent++) {
      write({
        type: "message_delta",
        message_id: "msg_clock",
        block_index: 0,
        kind: "text",
        text_delta: String(now()),
      });
    }
    await Bun.sleep(1);
  }
  write({ type: "turn_end", turn_id: "turn_clock" });
}

const decoder = new JsonlDecoder({
  value: (v) => {
    const m = v as { type?: string; id?: string };
    if (m.type !== "prompt") return;
    write({ type: "response", id: m.id, command: "prompt", success: true });
    void turn();
  },
  error: () => {},
});
for await (const chunk of Bun.stdin.stream()) decoder.push(chunk);
