/**
 * The security store's file rules (docs/protocol.md §3.1): a 0700 directory and a 0600 file of
 * ours, a versioned format; a store that is unsafe or unreadable stops the daemon with a message
 * and is never reset. And the in-memory codes and tickets stay bounded whatever is minted.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EnrollmentCodes, MAX_OPEN_CODES } from "../../../src/daemon/auth/enrollment-codes.ts";
import { SecurityStore } from "../../../src/daemon/auth/security-store.ts";
import { MAX_OPEN_TICKETS, WsTickets } from "../../../src/daemon/auth/ws-tickets.ts";
import { tempDir } from "../../agent/support/agent-process.ts";
import { AuthDaemon } from "./auth-daemon.ts";

function storeWith(content: string, mode = 0o600): string {
  const home = tempDir("store-home");
  mkdirSync(join(home, "security"), { mode: 0o700 });
  writeFileSync(join(home, "security", "browsers.json"), content, { mode });
  chmodSync(join(home, "security", "browsers.json"), mode);
  return home;
}

const valid = JSON.stringify({ version: 1, browsers: [], sessions: [] });

describe("SecurityStore.open", () => {
  test("refuses a store of another version, one that is not JSON, or does not match the format", () => {
    for (const content of [
      JSON.stringify({ version: 2, browsers: [], sessions: [] }),
      "{ not json",
      JSON.stringify({ version: 1, browsers: [{ id: "brw_1" }], sessions: [] }),
      JSON.stringify({
        version: 1,
        browsers: [],
        sessions: [{ id: "s", browser_id: "b", token_hash: "raw-cookie", secure: false, created_at: 1 }],
      }),
    ]) {
      const home = storeWith(content);
      const opened = SecurityStore.open(home);
      expect(opened.ok).toBe(false);
      if (!opened.ok) expect(opened.message).toContain("move it away");
      // Never reset: the file is as it was.
      expect(readFileSync(join(home, "security", "browsers.json"), "utf8")).toBe(content);
    }
  });

  test("refuses a store group or others can access, and a symlinked one", () => {
    expect(SecurityStore.open(storeWith(valid, 0o644)).ok).toBe(false);
    expect(SecurityStore.open(storeWith(valid, 0o620)).ok).toBe(false);
    const home = tempDir("store-home");
    mkdirSync(join(home, "security"), { mode: 0o700 });
    const elsewhere = join(tempDir("elsewhere"), "browsers.json");
    writeFileSync(elsewhere, valid, { mode: 0o600 });
    symlinkSync(elsewhere, join(home, "security", "browsers.json"));
    expect(SecurityStore.open(home).ok).toBe(false);
  });

  test("refuses a security path that is not a directory; tightens a wider directory to 0700", () => {
    const home = tempDir("store-home");
    writeFileSync(join(home, "security"), "");
    expect(SecurityStore.open(home).ok).toBe(false);
    const wide = tempDir("store-home");
    mkdirSync(join(wide, "security"), { mode: 0o755 });
    chmodSync(join(wide, "security"), 0o755);
    expect(SecurityStore.open(wide).ok).toBe(true);
    expect(statSync(join(wide, "security")).mode & 0o777).toBe(0o700);
  });

  test("an enrollment is written 0600 and read back by the next daemon", () => {
    const home = tempDir("store-home");
    const first = SecurityStore.open(home);
    if (!first.ok) throw new Error(first.message);
    const { browserId } = first.store.enroll("laptop", "a".repeat(64), false, 1000);
    expect(statSync(join(home, "security", "browsers.json")).mode & 0o777).toBe(0o600);
    const second = SecurityStore.open(home);
    if (!second.ok) throw new Error(second.message);
    expect(second.store.browsers()).toEqual([
      { id: browserId, label: "laptop", created_at: 1000, last_seen_at: 1000 },
    ]);
    expect(second.store.sessionByTokenHash("a".repeat(64))?.browser_id).toBe(browserId);
  });
});

describe("bounded memory", () => {
  test("minting past the open-code cap drops the oldest code", () => {
    const codes = new EnrollmentCodes(() => 0);
    const first = codes.mint().code;
    for (let i = 0; i < MAX_OPEN_CODES; i++) codes.mint();
    expect(codes.redeem(first, "127.0.0.1", () => 1)).toEqual({ ok: false, reason: "invalid" });
    expect(codes.redeem(codes.mint().code, "127.0.0.1", () => 1)).toEqual({ ok: true, value: 1 });
  });

  test("issuing past the open-ticket cap drops the oldest ticket", () => {
    const tickets = new WsTickets(() => 0);
    const binding = { browserId: "brw_1", sessionId: "bsn_1", origin: "http://127.0.0.1:1" };
    const first = tickets.issue(binding).ticket;
    for (let i = 0; i < MAX_OPEN_TICKETS; i++) tickets.issue(binding);
    expect(tickets.consume(first, binding.origin).ok).toBe(false);
    expect(tickets.consume(tickets.issue(binding).ticket, binding.origin).ok).toBe(true);
  });
});

test("a store write that fails answers 503 { code, message }, enrolls nobody, and leaves the code good", async () => {
  const d = await AuthDaemon.start();
  try {
    const path = join(d.home, "security", "browsers.json");
    rmSync(path, { force: true });
    // A directory where the file goes: the atomic rename onto it fails (even for root).
    mkdirSync(path);
    const res = await d.enroll(d.firstCode());
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body)).toMatchObject({ code: "INTERNAL_ERROR" });
    // Not a cause a client can name (not the disk): the log has it, the client is told where.
    expect(JSON.parse(res.body).message).toContain("daemon.log has the cause");
    expect(res.header("set-cookie")).toBeUndefined();
    expect((await (await d.unix()).ok({ type: "auth.list" })).browsers).toEqual([]);
    expect(readFileSync(join(d.home, "logs", "daemon.log"), "utf8")).toContain(
      "enrollment not saved: EISDIR",
    );
    // Nobody holds a cookie for it, so the link is not spent: once the disk is fixed it works.
    rmSync(path, { recursive: true });
    const retried = await d.enroll(d.firstCode());
    expect(retried.status).toBe(200);
    expect((await (await d.unix()).ok({ type: "auth.list" })).browsers).toHaveLength(1);
  } finally {
    await d.stop();
  }
});
