/**
 * The daemon's record of an ssh agent's far-side link directories
 * (src/daemon/registry/link-dir-record.ts, link-dirs.ts): durable across a restart (a file,
 * read back by a fresh reader), bounded, never a path, and written before the directory is
 * made, so a start whose ssh call fails keeps the name to sweep later.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  MAX_LINK_DIRS,
  newLinkDirName,
  readLinkDirs,
  recordedLinkDirs,
  writeLinkDirs,
} from "../../src/daemon/registry/link-dir-record.ts";
import { LinkDirs } from "../../src/daemon/registry/link-dirs.ts";
import { tempDir } from "../agent/support/agent-process.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { hasSshd } from "./support/sshd.ts";

const AGENT = "agent-linkdirsAAAAAAAAAAAAA";
const names = (n: number) => Array.from({ length: n }, () => newLinkDirName());

test("names survive in the file: a new reader (a restarted daemon) gets them back, oldest first", () => {
  const home = tempDir("link-record");
  const a = newLinkDirName();
  const b = newLinkDirName();
  expect(writeLinkDirs(home, "box", AGENT, [a, b])).toEqual([]);
  expect(readLinkDirs(home, "box", AGENT)).toEqual([a, b]);
  expect(recordedLinkDirs(home)).toEqual([{ placement: "box", agentId: AGENT }]);
  // Written atomically: no temp file beside it.
  const dir = join(home, "placements", "box", "links");
  expect(existsSync(join(dir, `${AGENT}.json`))).toBe(true);
  expect(Bun.spawnSync(["ls", dir]).stdout.toString().trim()).toBe(`${AGENT}.json`);
  // Emptied, the file goes.
  writeLinkDirs(home, "box", AGENT, []);
  expect(existsSync(join(dir, `${AGENT}.json`))).toBe(false);
  expect(recordedLinkDirs(home)).toEqual([]);
});

test(`bounded: past ${MAX_LINK_DIRS} names the oldest are forgotten (and reported)`, () => {
  const home = tempDir("link-record-bound");
  const many = names(MAX_LINK_DIRS + 5);
  const forgotten = writeLinkDirs(home, "box", AGENT, many);
  expect(forgotten).toEqual(many.slice(0, 5));
  expect(readLinkDirs(home, "box", AGENT)).toEqual(many.slice(5));
});

test("never a path: bad names are dropped, bad placement or agent names touch nothing, a bad file reads empty", () => {
  const home = tempDir("link-record-bad");
  const good = newLinkDirName();
  writeLinkDirs(home, "box", AGENT, ["../../etc", "x y", "", good]);
  expect(readLinkDirs(home, "box", AGENT)).toEqual([good]);
  expect(writeLinkDirs(home, "../box", AGENT, [good])).toEqual([]);
  expect(writeLinkDirs(home, "box", "../agent", [good])).toEqual([]);
  expect(existsSync(join(home, "placements", "..", "box"))).toBe(false);
  expect(readLinkDirs(home, "../box", AGENT)).toEqual([]);
  const dir = join(home, "placements", "other", "links");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${AGENT}.json`), "{not json");
  writeFileSync(join(dir, "not-an-agent.json"), "{}");
  expect(readLinkDirs(home, "other", AGENT)).toEqual([]);
  expect(recordedLinkDirs(home)).toContainEqual({ placement: "other", agentId: AGENT });
  expect(recordedLinkDirs(home)).not.toContainEqual({ placement: "other", agentId: "not-an-agent" });
});

describe.skipIf(!hasSshd)("the intent before the side effect", () => {
  test("a start whose ssh call fails keeps the new name with the old ones, to sweep later", async () => {
    const home = tempDir("link-record-intent");
    const old = newLinkDirName();
    writeLinkDirs(home, "gone", AGENT, [old]);
    // A port nothing listens on: ssh fails, after the record was written.
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = closed.port;
    closed.stop(true);
    const logged: string[] = [];
    const dirs = new LinkDirs({ home, env: CHILD_ENV, log: (line) => logged.push(line) });
    const made = await dirs.make(AGENT, { name: "gone", kind: "ssh", host: "127.0.0.1", port });
    expect(made).toBeUndefined();
    const recorded = readLinkDirs(home, "gone", AGENT);
    expect(recorded.length).toBe(2);
    expect(recorded[0]).toBe(old);
    expect(logged.join("\n")).toContain("no subagent link");
    await dirs.close();
  });
});
