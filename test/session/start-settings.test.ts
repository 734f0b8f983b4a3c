/** The mode and model a session starts with live in its header and count as recorded state. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createSession } from "../../src/session/create-session.ts";
import { forkSession } from "../../src/session/fork-session.ts";
import { openSession } from "../../src/session/open-session.ts";
import { assistantText, tempHome, userText } from "./helpers.ts";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

describe("start settings", () => {
  test("are in the header, restored on open, and carried into a fork", () => {
    const store = createSession({ home, cwd: "/tmp/p", mode: "plan", model: "mock/chat" });
    store.append(userText("q"));
    const answer = store.append(assistantText("a"));
    expect(store.state()).toEqual({ mode: "plan", model: "mock/chat", reasoning: {} });
    expect(JSON.parse(readFileSync(store.path, "utf8").split("\n")[0] ?? "")).toMatchObject({
      mode: "plan",
      model: "mock/chat",
    });
    expect(store.entries().map((e) => e.type)).toEqual(["message", "message"]);

    const fork = forkSession(store, answer.id);
    if (!fork.ok) throw new Error(fork.error.message);
    store.close();

    const reopened = openSession({ home, idOrPath: store.sessionId });
    if (!reopened.ok) throw new Error(reopened.error.message);
    expect(reopened.store.state()).toEqual({ mode: "plan", model: "mock/chat", reasoning: {} });
    reopened.store.append({ type: "model_change", model: "mock/other" });
    expect(reopened.store.state().model).toBe("mock/other");
    reopened.store.close();

    const forked = openSession({ home, idOrPath: fork.data.session_id });
    if (!forked.ok) throw new Error(forked.error.message);
    expect(forked.store.state()).toEqual({ mode: "plan", model: "mock/chat", reasoning: {} });
    forked.store.close();
  });
});
