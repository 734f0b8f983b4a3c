/**
 * `$SHARD_HOME/logs/daemon.log`: lifecycle lines only (never prompt text), capped in size —
 * past the cap the file becomes `daemon.log.1` and a new one starts.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";

export const DAEMON_LOG_CAP_BYTES = 5 * 1024 * 1024;

export class DaemonLog {
  private size: number;

  constructor(
    private readonly path: string,
    private readonly capBytes = DAEMON_LOG_CAP_BYTES,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    try {
      this.size = statSync(path).size;
    } catch {
      this.size = 0;
    }
  }

  write(line: string): void {
    const text = `${new Date().toISOString()} ${line.replaceAll("\n", " ")}\n`;
    try {
      if (this.size + text.length > this.capBytes && this.size > 0) {
        renameSync(this.path, `${this.path}.1`);
        this.size = 0;
      }
      appendFileSync(this.path, text, { mode: 0o600 });
      this.size += Buffer.byteLength(text);
    } catch {
      // A full disk must not take the daemon down; the log is best effort.
    }
  }
}
