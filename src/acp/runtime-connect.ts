/**
 * A `Connect` that starts one `shard agent` child and speaks JSONL on its stdio, for the
 * request channel (src/client). The child exits on stdin EOF, so closing the channel never
 * leaves a runtime behind; its stderr is passed on to ours (an editor keeps it in its log).
 */
import type { Connect } from "../client/channel-transport.ts";
import { describeError } from "../support/describe-error.ts";
import { failure } from "../wire/errors.ts";
import { JsonlDecoder } from "../wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../wire/jsonl-encoder.ts";

export interface RuntimeProcess {
  /** Resolves once the child has exited. */
  readonly exited: Promise<number>;
}

export function runtimeConnect(
  argv: string[],
  env: Record<string, string | undefined>,
  started: (process: RuntimeProcess) => void,
): Connect {
  return async (sink) => {
    let proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
    try {
      proc = Bun.spawn(argv, { stdin: "pipe", stdout: "pipe", stderr: "pipe", env });
    } catch (err) {
      return {
        ...failure("RUNTIME_START_FAILED", `could not start ${argv[0]}: ${describeError(err)}`),
        retry: false,
      };
    }
    let ended = false;
    const decoder = new JsonlDecoder({ value: (v) => sink.message(v), error: (e) => sink.invalid(e) });
    const stdout = (async () => {
      for await (const chunk of proc.stdout) decoder.push(chunk);
      decoder.end();
    })();
    const stderr = (async () => {
      for await (const chunk of proc.stderr) process.stderr.write(chunk);
    })();
    const exited = (async () => {
      await Promise.allSettled([stdout, stderr]);
      const code = await proc.exited;
      ended = true;
      sink.closed(`the agent process exited (code ${code})`);
      return code;
    })();
    started({ exited });
    return {
      ok: true,
      transport: {
        send: (message) => {
          if (ended) return;
          try {
            proc.stdin.write(encodeJsonLine(message));
            proc.stdin.flush();
          } catch {
            // The child is gone; `closed` says so.
          }
        },
        close: () => {
          try {
            proc.stdin.end();
          } catch {
            // already closed
          }
        },
      },
    };
  };
}
