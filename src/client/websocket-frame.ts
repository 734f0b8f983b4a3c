/** One WebSocket frame from the daemon, for the web's and the SDK's sockets alike. */
import type { WireError } from "../wire/errors.ts";

interface FrameSink {
  message(value: unknown): void;
  invalid(error: WireError): void;
}

/** Frames are JSON text: the parsed value goes on, anything else is reported and dropped. */
export function deliverFrame(data: unknown, sink: FrameSink): void {
  if (typeof data !== "string") {
    sink.invalid({
      code: "INVALID_REQUEST",
      message: "the daemon sent a binary frame; frames are JSON text",
    });
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    sink.invalid({ code: "INVALID_REQUEST", message: "the daemon sent a frame that is not JSON" });
    return;
  }
  sink.message(value);
}
