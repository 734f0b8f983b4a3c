/**
 * The durable security store (docs/protocol.md §3.1): `$SHARD_HOME/security/browsers.json`,
 * versioned, 0600 in a 0700 directory, written atomically. It holds principals (enrolled browsers)
 * and their sessions — metadata and SHA-256 hashes of the session cookies only. No raw code, cookie
 * or ticket is ever written here (or anywhere else).
 */
import { join } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { readOwnerOnlyFile } from "../../permissions/owner-only-file.ts";
import { atomicWriteFileSync, type WriteIo } from "../../support/atomic-write.ts";
import { newId } from "../../support/ids.ts";
import type { BrowserInfo } from "../../types/auth.ts";
import { schemaCheck } from "../../wire/schema-check.ts";
import { secureSecurityDir } from "./security-dir.ts";

export const SECURITY_STORE_VERSION = 1;
const MAX_STORE_BYTES = 4 * 1024 * 1024;
/** Browsers kept; enrolling past this is refused until one is revoked (the file stays small). */
export const MAX_BROWSERS = 256;

const BrowserRecordSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  label: Type.String(),
  created_at: Type.Number(),
  last_seen_at: Type.Number(),
});

const SessionRecordSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  browser_id: Type.String({ minLength: 1 }),
  /** SHA-256 (hex) of the cookie value. */
  token_hash: Type.String({ pattern: "^[0-9a-f]{64}$" }),
  /** Issued over an https effective scheme (the `__Host-` Secure form). */
  secure: Type.Boolean(),
  created_at: Type.Number(),
});

const StoreFileSchema = Type.Object({
  version: Type.Literal(SECURITY_STORE_VERSION),
  browsers: Type.Array(BrowserRecordSchema),
  sessions: Type.Array(SessionRecordSchema),
});
type StoreFile = Static<typeof StoreFileSchema>;
const storeFileCheck = schemaCheck(StoreFileSchema);

export type SessionRecord = Static<typeof SessionRecordSchema>;

export class SecurityStore {
  private constructor(
    private readonly path: string,
    private data: StoreFile,
    private readonly io: WriteIo | undefined,
  ) {}

  /** Opens (or starts) the store; a store that is unsafe or unreadable is refused, never reset. */
  static open(
    home: string,
    io?: WriteIo,
  ): { ok: true; store: SecurityStore } | { ok: false; message: string } {
    const dir = join(home, "security");
    const checked = secureSecurityDir(dir);
    if (!checked.ok) return checked;
    const path = join(dir, "browsers.json");
    const read = readOwnerOnlyFile(path, MAX_STORE_BYTES);
    if (read.kind === "missing") {
      return {
        ok: true,
        store: new SecurityStore(path, { version: SECURITY_STORE_VERSION, browsers: [], sessions: [] }, io),
      };
    }
    const broken = (why: string) => ({
      ok: false as const,
      message: `security store ${path} ${why}; move it away to start over (every browser must enroll again)`,
    });
    if (read.kind === "refused") return broken(`is not trusted: ${read.reason}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(read.text);
    } catch {
      return broken("is not valid JSON");
    }
    if (!storeFileCheck.check(parsed)) {
      const version =
        typeof parsed === "object" && parsed !== null && "version" in parsed ? parsed.version : undefined;
      return broken(
        version !== SECURITY_STORE_VERSION
          ? `has version ${String(version)}, this shard reads version ${SECURITY_STORE_VERSION}`
          : "does not match its format",
      );
    }
    return { ok: true, store: new SecurityStore(path, parsed, io) };
  }

  browsers(): BrowserInfo[] {
    return this.data.browsers.map((b) => ({ ...b }));
  }

  hasBrowsers(): boolean {
    return this.data.browsers.length > 0;
  }

  isFull(): boolean {
    return this.data.browsers.length >= MAX_BROWSERS;
  }

  /** A new principal with its first session; returns their ids. */
  enroll(
    label: string,
    tokenHash: string,
    secure: boolean,
    now: number,
  ): { browserId: string; sessionId: string } {
    const browserId = newId("brw");
    const sessionId = newId("bsn");
    this.commit({
      ...this.data,
      browsers: [...this.data.browsers, { id: browserId, label, created_at: now, last_seen_at: now }],
      sessions: [
        ...this.data.sessions,
        { id: sessionId, browser_id: browserId, token_hash: tokenHash, secure, created_at: now },
      ],
    });
    return { browserId, sessionId };
  }

  sessionByTokenHash(tokenHash: string): SessionRecord | undefined {
    return this.data.sessions.find((s) => s.token_hash === tokenHash);
  }

  sessionById(sessionId: string): SessionRecord | undefined {
    return this.data.sessions.find((s) => s.id === sessionId);
  }

  /** Records a bootstrap; written at most once a minute per browser (last-seen is coarse). */
  touch(browserId: string, now: number): void {
    const browser = this.data.browsers.find((b) => b.id === browserId);
    if (!browser || now - browser.last_seen_at < 60_000) return;
    this.commit({
      ...this.data,
      browsers: this.data.browsers.map((b) => (b.id === browserId ? { ...b, last_seen_at: now } : b)),
    });
  }

  /** Removes the browser and every session of it; false when there is no such browser. */
  revoke(browserId: string): boolean {
    if (!this.data.browsers.some((b) => b.id === browserId)) return false;
    this.commit({
      ...this.data,
      browsers: this.data.browsers.filter((b) => b.id !== browserId),
      sessions: this.data.sessions.filter((s) => s.browser_id !== browserId),
    });
    return true;
  }

  /** Written first, then adopted: memory never holds what the disk refused (a full disk throws). */
  private commit(next: StoreFile): void {
    atomicWriteFileSync(this.path, `${JSON.stringify(next, null, 2)}\n`, 0o600, this.io);
    this.data = next;
  }
}
