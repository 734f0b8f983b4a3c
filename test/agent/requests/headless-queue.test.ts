/**
 * The `queue` headless policy: a request nobody can answer waits for the headless timeout,
 * but once an interactive client attaches it waits for that client instead, and the timeout
 * never fires. Timers are a manual scheduler here, so the test controls time exactly.
 */
import { describe, expect, test } from "bun:test";
import { ClientRequests } from "../../../src/agent/requests/client-requests.ts";
import { PendingRequests } from "../../../src/agent/requests/pending-requests.ts";
import type { PermissionAnswer } from "../../../src/contracts/permission-gate.ts";
import type { UnsequencedAgentEvent } from "../../../src/types/catalog.ts";

function manualScheduler() {
  const timers = new Set<{ fire: () => void; ms: number }>();
  return {
    schedule: (fire: () => void, ms: number) => {
      const timer = { fire, ms };
      timers.add(timer);
      return () => timers.delete(timer);
    },
    pending: () => timers.size,
    fireAll: () => {
      for (const t of [...timers]) {
        timers.delete(t);
        t.fire();
      }
    },
  };
}

function setUp() {
  const events: UnsequencedAgentEvent[] = [];
  let interactive = false;
  const clock = manualScheduler();
  const pending = new PendingRequests(() => {});
  const requests = new ClientRequests({
    pending,
    emit: (e) => events.push(e),
    hasInteractiveResponder: () => interactive,
    policy: "queue",
    headlessTimeoutMs: 1_000,
    schedule: clock.schedule,
  });
  const ask = () =>
    requests.permission(
      { tool_name: "bash", input: { command: "ls" }, prompt: "Run ls?", options: ["allow", "deny"] },
      new AbortController().signal,
    );
  const setInteractive = (value: boolean) => {
    interactive = value;
    requests.respondersChanged();
  };
  return { events, clock, pending, ask, setInteractive };
}

describe("queue headless policy", () => {
  test("with nobody to answer, the headless timeout denies the request with TIMEOUT", async () => {
    const { events, clock, ask } = setUp();
    const answer = ask();
    expect(clock.pending()).toBe(1);
    clock.fireAll();
    expect(await answer).toEqual({ kind: "cancelled", reason: "headless timeout" });
    expect(events.map((e) => e.type)).toEqual(["permission_request", "error", "permission_resolved"]);
  });

  test("an interactive client that attaches cancels the timeout; its answer wins", async () => {
    const { events, clock, pending, ask, setInteractive } = setUp();
    const answer = ask();
    setInteractive(true);
    expect(clock.pending()).toBe(0);
    clock.fireAll(); // nothing left to fire
    const request = events.find((e) => e.type === "permission_request");
    if (request?.type !== "permission_request") throw new Error("no request");
    pending.answerPermission({ request_id: request.request_id, decision: "allow", source: "web" });
    const expected: PermissionAnswer = {
      kind: "decision",
      decision: "allow",
      source: "web",
      reason: undefined,
    };
    expect(await answer).toEqual(expected);
    expect(events.some((e) => e.type === "error")).toBe(false);
  });

  test("when the last interactive client leaves, the timeout starts again", async () => {
    const { clock, ask, setInteractive } = setUp();
    const answer = ask();
    setInteractive(true);
    expect(clock.pending()).toBe(0);
    setInteractive(false);
    expect(clock.pending()).toBe(1);
    clock.fireAll();
    expect(await answer).toEqual({ kind: "cancelled", reason: "headless timeout" });
  });
});
