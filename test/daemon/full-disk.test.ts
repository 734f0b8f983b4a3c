/**
 * A full disk (ENOSPC): a durable write that fails leaves nothing half-made (no temp file, no
 * empty `agents/<id>/` folder reported at every start), and the client gets an error that says
 * why: `agent.create` an INTERNAL_ERROR naming the full disk, `/enroll` a 503 whose code still
 * works once there is room. Unit tests inject ENOSPC through the write interface; the real ones
 * mount a 64 KiB tmpfs under SHARD_HOME and fill it (skipped only where mount is not permitted).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { BrowserAuth } from "../../src/daemon/auth/browser-auth.ts";
import { SecurityStore } from "../../src/daemon/auth/security-store.ts";
import { ManifestStore } from "../../src/daemon/registry/manifest-store.ts";
import { atomicWriteFileSync, type WriteIo } from "../../src/support/atomic-write.ts";
import { newId } from "../../src/support/ids.ts";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { AuthDaemon } from "./auth/auth-daemon.ts";
import { useDaemonHarnesses } from "./support/daemon-harness.ts";

/** A disk that is full while `full` is set: every write fails the way the kernel's does. */
function fullDisk(): WriteIo & { full: boolean } {
  return {
    full: true,
    writeSync(fd, bytes, offset, length) {
      if (this.full)
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      return writeSync(fd, bytes, offset, length);
    },
  };
}

const manifest = (agentId: string, cwd: string) => ({
  version: 1 as const,
  agent_id: agentId,
  cwd,
  created_at: 1,
  headless_policy: "deny" as const,
});

describe("ENOSPC through the write interface", () => {
  test("a manifest write that fails leaves no agents/<id>/ folder, and the next start reports nothing", () => {
    const home = tempDir("full-home");
    const disk = fullDisk();
    const store = new ManifestStore(home, disk);
    const agentId = newId("agent");
    expect(() => store.save(manifest(agentId, home))).toThrow("ENOSPC");
    expect(existsSync(join(home, "agents", agentId))).toBe(false);
    expect(new ManifestStore(home).loadAll()).toEqual({
      manifests: [],
      problems: [],
      removed: [],
      deleted: [],
    });
    // With room again the same write works.
    disk.full = false;
    store.save(manifest(agentId, home));
    expect(readdirSync(join(home, "agents", agentId))).toEqual(["manifest.json"]);
  });

  test("only the folders the write made go: one that was there stays, with its files", () => {
    const home = tempDir("full-dirs");
    mkdirSync(join(home, "kept"));
    writeFileSync(join(home, "kept", "other.json"), "{}");
    expect(() =>
      atomicWriteFileSync(join(home, "kept", "a", "b", "x.json"), "{}", 0o600, fullDisk()),
    ).toThrow();
    expect(readdirSync(join(home, "kept"))).toEqual(["other.json"]);
  });

  test("an empty folder an older daemon left is removed at start, not reported every time", () => {
    const home = tempDir("half-made");
    const agentId = newId("agent");
    mkdirSync(join(home, "agents", agentId), { recursive: true });
    writeFileSync(join(home, "agents", agentId, "manifest.json.123.abc.tmp"), "");
    const other = newId("agent");
    mkdirSync(join(home, "agents", other), { recursive: true });
    writeFileSync(join(home, "agents", other, "notes.txt"), "not ours to remove");
    const loaded = new ManifestStore(home).loadAll();
    expect(loaded.removed).toEqual([agentId]);
    expect(loaded.problems.map((p) => p.agent_id)).toEqual([other]);
    expect(existsSync(join(home, "agents", agentId))).toBe(false);
    expect(existsSync(join(home, "agents", other, "notes.txt"))).toBe(true);
  });

  test("enroll on a full disk: a 503-class refusal that says why, and the same code works once there is room", () => {
    const home = tempDir("full-auth");
    const disk = fullDisk();
    const opened = SecurityStore.open(home, disk);
    if (!opened.ok) throw new Error(opened.message);
    const auth = new BrowserAuth({
      store: opened.store,
      clock: () => Date.now(),
      allowedOrigins: () => new Set(),
      log: () => {},
    });
    const { code } = auth.mintCode();
    const refused = auth.enroll(code, "test", "http", "127.0.0.1");
    expect(refused).toMatchObject({ ok: false, status: 503 });
    if (refused.ok) return;
    expect(refused.message).toContain("full (ENOSPC)");
    expect(refused.message).toContain("this code still works");
    expect(refused.message).not.toContain(home);
    expect(opened.store.hasBrowsers()).toBe(false);
    expect(readdirSync(join(home, "security"))).toEqual([]);
    disk.full = false;
    expect(auth.enroll(code, "test", "http", "127.0.0.1")).toMatchObject({ ok: true });
  });
});

/** Mounts a 64 KiB tmpfs at `dir` and fills it; false where mounting is not permitted. */
const mounted: string[] = [];
function fullTmpfs(dir: string): boolean {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mount = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", dir], {
    stderr: "pipe",
  });
  if (mount.exitCode !== 0) return false;
  mounted.push(dir);
  try {
    writeFileSync(join(dir, "filler"), Buffer.alloc(1024 * 1024));
  } catch {
    // Full: what the test wants.
  }
  return true;
}

afterEach(() => {
  for (const dir of mounted.splice(0)) Bun.spawnSync(["umount", "-l", dir]);
});

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);
const canMount = (() => {
  const probe = tempDir("mount-probe");
  const ok = fullTmpfs(probe);
  for (const dir of mounted.splice(0)) Bun.spawnSync(["umount", "-l", dir]);
  if (!ok)
    console.warn("full-disk.test.ts: mount -t tmpfs is not permitted here; the tmpfs tests are skipped");
  return ok;
})();

describe.skipIf(!canMount)("a real full tmpfs under SHARD_HOME", () => {
  test("agent.create: a clear error, no folder left, and a retry works once there is room", async () => {
    const home = mockHome(llm().url);
    const agents = join(home, "agents");
    fullTmpfs(agents);
    const h = await startHarness({ home });
    const c = await h.unixClient();
    const refused = await c.request({ type: "agent.create", cwd: home, model: "mock/chat" });
    expect(refused.error.code).toBe("INTERNAL_ERROR");
    expect(refused.error.message).toContain("the disk that holds SHARD_HOME is full (ENOSPC)");
    expect(refused.error.message).not.toContain(home);
    expect(readdirSync(agents)).toEqual(["filler"]);
    rmSync(join(agents, "filler"));
    const created = await c.ok({ type: "agent.create", cwd: home, model: "mock/chat" });
    expect(readdirSync(agents)).toEqual([created.agent_id]);
  });

  test("POST /enroll: 503 with a message, nothing written, the code works once there is room", async () => {
    const home = tempDir("enroll-full");
    const d = await AuthDaemon.start({ home });
    try {
      const security = join(home, "security");
      fullTmpfs(security);
      const code = await d.mintCode();
      const refused = await d.enroll(code);
      expect(refused.status).toBe(503);
      expect(refused.header("set-cookie")).toBeUndefined();
      const body = JSON.parse(refused.body);
      expect(body.code).toBe("INTERNAL_ERROR");
      expect(body.message).toContain("the disk that holds SHARD_HOME is full (ENOSPC)");
      expect(readdirSync(security)).toEqual(["filler"]);
      rmSync(join(security, "filler"));
      expect((await d.enroll(code)).status).toBe(200);
    } finally {
      await d.stop();
    }
  });
});
