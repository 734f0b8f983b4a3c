/**
 * Reads the client serves (`--client-reads`, protocol-additions §26): the `read` tool asks for
 * a file's text with a `client_read_request` and the client answers `client_read_response`, so
 * an editor's unsaved buffer is what the model sees. Every question ends: the answer, a
 * timeout or the call's abort, and then the tool reads the disk as it would have.
 */
import { newId } from "../../support/ids.ts";
import type { UnsequencedAgentEvent } from "../../types/catalog.ts";

/** How long the client has to answer before the disk is read instead. */
const ANSWER_TIMEOUT_MS = 5_000;
/** Questions open at once (a read is one call at a time; this only bounds a stuck client). */
const MAX_OPEN = 16;

export class ClientReads {
  private readonly waiting = new Map<string, (content: string | undefined) => void>();

  constructor(
    private readonly emit: (event: UnsequencedAgentEvent) => void,
    private readonly timeoutMs = ANSWER_TIMEOUT_MS,
  ) {}

  /** The text the client holds for `path` (absolute), or undefined: read the disk. */
  read(path: string, signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted || this.waiting.size >= MAX_OPEN) return Promise.resolve(undefined);
    const requestId = newId("req");
    return new Promise((resolve) => {
      const done = (content: string | undefined) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", aborted);
        this.waiting.delete(requestId);
        resolve(content);
      };
      const aborted = () => done(undefined);
      const timer = setTimeout(aborted, this.timeoutMs);
      signal.addEventListener("abort", aborted, { once: true });
      this.waiting.set(requestId, done);
      this.emit({ type: "client_read_request", request_id: requestId, path });
    });
  }

  /** False when no question of that id is open (answered, timed out, or never asked). */
  answer(requestId: string, content: string | undefined): boolean {
    const done = this.waiting.get(requestId);
    if (done === undefined) return false;
    done(content);
    return true;
  }
}
