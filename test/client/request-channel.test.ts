/**
 * The client core's request channel against a real unix socket: ids, matching, timeouts,
 * every pending request settling on close, and reconnecting with backoff and re-attaching.
 */
import { afterEach, describe, expect, test } from "bun:test";
import {
  type ChannelState,
  RequestChannel,
  type RequestChannelOptions,
} from "../../src/client/request-channel.ts";
import { unixSocketConnect } from "../../src/client/unix-socket-connect.ts";
import { isRecord } from "../../src/support/is-record.ts";
import { asResponse } from "../../src/wire/validate.ts";
import { LineServer } from "./support/line-server.ts";

const servers: LineServer[] = [];
const channels: RequestChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) c.close();
  for (const s of servers.splice(0)) s.stop();
});

function server(sayHello = true): LineServer {
  const s = new LineServer(sayHello);
  servers.push(s);
  s.start();
  return s;
}

function channel(s: LineServer, options: Partial<RequestChannelOptions> = {}) {
  const messages: unknown[] = [];
  const states: ChannelState[] = [];
  const opened: ((state: ChannelState) => void)[] = [];
  const c = new RequestChannel(
    {
      connect: unixSocketConnect(s.path),
      idPrefix: "t-",
      readResponse: asResponse,
      waitForHello: true,
      ...options,
    },
    {
      message: (m) => messages.push(m),
      state: (state) => {
        states.push(state);
        for (const w of opened.splice(0)) w(state);
      },
    },
  );
  channels.push(c);
  /** The next state change with this kind. */
  const nextState = (kind: ChannelState["kind"]) =>
    new Promise<ChannelState>((resolve) => {
      const wait = (state: ChannelState) => (state.kind === kind ? resolve(state) : opened.push(wait));
      opened.push(wait);
    });
  return { c, messages, states, nextState };
}

const list = { type: "agent.list" } as const;

describe("RequestChannel", () => {
  test("answers are matched by id, whatever their order; ids are never reused", async () => {
    const s = server();
    const { c } = channel(s);
    expect(await c.open()).toEqual({ ok: true });
    const first = c.request(list);
    const second = c.request({ type: "session.list" });
    const a = await s.next((r) => r.message.type === "agent.list");
    const b = await s.next((r) => r.message.type === "session.list");
    expect(a.message.id).not.toBe(b.message.id);
    s.answer(b, { sessions: [] });
    s.answer(a, { agents: [] });
    expect(await second).toMatchObject({
      ok: true,
      response: { command: "session.list", data: { sessions: [] } },
    });
    expect(await first).toMatchObject({
      ok: true,
      response: { command: "agent.list", data: { agents: [] } },
    });
    const ids = new Set<unknown>();
    for (let i = 0; i < 50; i++) void c.request(list);
    await s.next((r) => r.message.type === "agent.list", s.received.length + 49);
    for (const r of s.received) ids.add(r.message.id);
    expect(ids.size).toBe(s.received.length);
  });

  test("a request with no answer settles with TIMEOUT; its late answer reaches no one", async () => {
    const s = server();
    const { c, messages } = channel(s);
    await c.open();
    const result = await c.request(list, { timeoutMs: 20 });
    expect(result).toEqual({
      ok: false,
      error: {
        code: "TIMEOUT",
        message: "agent.list: no answer within 0.02 s; the server may be busy, try again",
      },
    });
    expect(c.inFlight).toBe(0);
    const late = await s.next((r) => r.message.type === "agent.list");
    s.answer(late);
    s.push({ type: "response", id: "someone-else-1", command: "agent.list", success: true });
    // A later answer is the barrier: everything before it has been handled.
    const barrier = c.request({ type: "session.list" });
    s.answer(await s.next((r) => r.message.type === "session.list"));
    expect((await barrier).ok).toBe(true);
    expect(messages.filter((m) => isRecord(m) && m.type === "response")).toEqual([]);
  });

  test("events and id-less responses go to the client; the hello opens the channel", async () => {
    const s = server();
    const { c, messages } = channel(s);
    await c.open();
    expect(c.isOpen).toBe(true);
    s.push({ type: "status", agent_id: "a1", status: "idle" });
    s.push({
      type: "response",
      command: "?",
      success: false,
      error: { code: "INVALID_REQUEST", message: "bad line" },
    });
    const barrier = c.request(list);
    s.answer(await s.next());
    await barrier;
    expect(messages).toEqual([
      { type: "status", agent_id: "a1", status: "idle" },
      {
        type: "response",
        command: "?",
        success: false,
        error: { code: "INVALID_REQUEST", message: "bad line" },
      },
    ]);
  });

  test("the server hanging up settles every pending request with NOT_ATTACHED, and without reconnect closes", async () => {
    const s = server();
    const { c, nextState } = channel(s);
    await c.open();
    const pending = [c.request(list), c.request({ type: "session.list" }, { timeoutMs: Infinity })];
    await s.next((r) => r.message.type === "session.list");
    const closed = nextState("closed");
    s.hangUp();
    const results = await Promise.all(pending);
    for (const r of results) expect(r).toMatchObject({ ok: false, error: { code: "NOT_ATTACHED" } });
    expect(await closed).toMatchObject({ kind: "closed", error: { code: "NOT_ATTACHED" } });
    expect(await c.request(list)).toMatchObject({ ok: false, error: { code: "NOT_ATTACHED" } });
    expect(c.inFlight).toBe(0);
  });

  test("close() settles everything at once, before the socket is gone", async () => {
    const s = server();
    const { c } = channel(s);
    await c.open();
    const pending = c.request(list, { timeoutMs: Infinity });
    await s.next();
    c.close("done here");
    expect(await pending).toEqual({
      ok: false,
      error: { code: "NOT_ATTACHED", message: "agent.list: the connection closed: done here" },
    });
  });

  test("an aborted request settles at once and its answer is ignored", async () => {
    const s = server();
    const { c } = channel(s);
    await c.open();
    const abort = new AbortController();
    const pending = c.request(list, { signal: abort.signal, timeoutMs: Infinity });
    const sent = await s.next();
    abort.abort();
    expect(await pending).toEqual({
      ok: false,
      error: { code: "INTERNAL_ERROR", message: "agent.list: aborted" },
    });
    s.answer(sent);
    expect(c.inFlight).toBe(0);
  });

  test("no hello: the connection is not open, and a close before it fails the open", async () => {
    const s = server(false);
    const { c } = channel(s);
    const opening = c.open();
    await s.connection(1);
    s.hangUp();
    expect(await opening).toMatchObject({
      ok: false,
      error: {
        code: "NOT_ATTACHED",
        message: "the connection closed before its hello: the daemon closed the connection",
      },
    });
  });

  test("a server of another major protocol version: closed for good with PROTOCOL_ERROR, no retry", async () => {
    const s = new LineServer(true, "1.0.0");
    servers.push(s);
    s.start();
    const { c, states } = channel(s, { reconnect: { initialDelayMs: 1, maxDelayMs: 1 } });
    const opened = await c.open(true);
    expect(opened).toMatchObject({ ok: false, error: { code: "PROTOCOL_ERROR" } });
    if (!opened.ok) expect(opened.error.message).toContain("protocol 1.0.0");
    expect(states.at(-1)?.kind).toBe("closed");
    expect(c.isOpen).toBe(false);
    // A minor or patch difference is fine.
    const newer = new LineServer(true, "0.9.3");
    servers.push(newer);
    newer.start();
    expect(await channel(newer).c.open()).toEqual({ ok: true });
  });

  test("no server: the first open fails with what to do, and stays closed without retry", async () => {
    const s = new LineServer();
    const { c } = channel(s);
    const opened = await c.open();
    expect(opened).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    if (!opened.ok) expect(opened.error.message).toContain("start one with `shard daemon`");
    expect(c.isOpen).toBe(false);
  });

  test("a lost connection comes back with backoff, and the client re-attaches on open", async () => {
    const s = server();
    const { c, states, nextState } = channel(s, { reconnect: { initialDelayMs: 1, maxDelayMs: 4 } });
    await c.open();
    const waiting = nextState("waiting");
    s.stop(); // refuses new connections: the retries keep failing and back off
    expect(await waiting).toMatchObject({ kind: "waiting", retryInMs: 1 });
    await nextState("waiting");
    await nextState("waiting");
    const delays = states.flatMap((x) => (x.kind === "waiting" ? [x.retryInMs] : []));
    expect(delays.slice(0, 3)).toEqual([1, 2, 4]);
    const back = nextState("open");
    s.start();
    expect(await back).toEqual({ kind: "open", reconnected: true });
    // Re-attach, as a client does on a reconnected open: it goes over the new connection.
    const attached = c.request({ type: "agent.attach", agent_id: "a1", role: "interactive" });
    const attach = await s.next((r) => r.message.type === "agent.attach");
    expect(attach.connection).toBe(2);
    s.answer(attach);
    expect((await attached).ok).toBe(true);
    // Once connected the backoff starts again from its first delay.
    const again = nextState("waiting");
    s.hangUp();
    expect(await again).toMatchObject({ retryInMs: 1 });
  });

  test("a timeout on a silent connection drops it (dropWhenSilent), and it reconnects", async () => {
    const s = server();
    const { c, nextState } = channel(s, { reconnect: { initialDelayMs: 1 }, dropWhenSilent: true });
    await c.open();
    const waiting = nextState("waiting");
    const result = await c.request(list, { timeoutMs: 20 });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "TIMEOUT", message: "agent.list: no answer within 0.02 s; reconnecting" },
    });
    expect(await waiting).toMatchObject({ reason: "the server stopped answering" });
    expect(await nextState("open")).toEqual({ kind: "open", reconnected: true });
  });
});
