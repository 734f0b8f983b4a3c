/** The line reader the session tests read child processes with: it never waits on a dead stream. */
import { describe, expect, test } from "bun:test";
import { lineReader } from "./helpers.ts";

function child(script: string) {
  return Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
}

describe("lineReader", () => {
  test("until resolves with a line already read or still to come", async () => {
    const proc = child('console.log("one"); console.log("two")');
    const out = lineReader(proc.stdout);
    expect(await out.until((l) => l === "two")).toBe("two");
    expect(await out.until((l) => l === "one")).toBe("one");
    await out.done;
    expect(out.lines).toEqual(["one", "two"]);
  });

  test("until rejects, naming what it waited for and the child's stderr, when the output ends first", async () => {
    const proc = child('console.log("ready"); console.error("fixture: gave up"); process.exit(3)');
    const out = lineReader(proc.stdout, { name: "fixture.ts", stderr: proc.stderr });
    // Not `expect(promise).rejects`: Bun spins the event loop inside it, so the test timeout
    // could not end a wait that never settles (which is what this test guards against).
    const error = await out.until((l) => l.startsWith("locked ")).catch((e: Error) => e);
    expect(String(error)).toBe(
      'Error: fixture.ts: output ended before a line matching (l) => l.startsWith("locked ") (1 lines read; last: "ready")\nstderr: fixture: gave up',
    );
    // Asked again after the end: rejected at once, with the caller's own description.
    const again = await out.until(() => false, "the 2nd line").catch((e: Error) => e);
    expect(String(again)).toContain("output ended before a line matching the 2nd line");
  }, 5_000);
});
