/**
 * What nothing in the runtime sends today: the `ui_request` kinds confirm, editor and notify
 * (the `ask` tool raises only select and input; see dialogs-ui.test.ts for those end to end),
 * and a permission request with only the legacy `options` (the runtime always adds `choices`). The
 * real built page, in Chromium, talks to a protocol peer that sends exactly what the daemon
 * forwards (a `sync` with the open requests, `ui_resolved` after an answer) under the daemon's
 * own CSP, and records the page's `ui_response`s checked against the protocol schema. None of
 * the page's code is replaced.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import type { Server, ServerWebSocket } from "bun";
import type { Page } from "playwright-core";
import { CONTENT_SECURITY_POLICY } from "../../src/daemon/http/security-headers.ts";
import { AGENT_EVENT_SCHEMAS } from "../../src/types/catalog.ts";
import { PROTOCOL_VERSION } from "../../src/types/envelope.ts";
import {
  type PermissionRequest,
  type PermissionResponse,
  PermissionResponseSchema,
  type UiRequest,
  type UiResponse,
  UiResponseSchema,
} from "../../src/types/permissions.ts";
import { ResponseSchema } from "../../src/types/response.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { builtWebDir } from "./support/web-build.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const openContext = useChromium();
const AGENT = "agent_peer";

interface Peer {
  url: string;
  /** Every `ui_response` and `permission_response` the page sent, in order. */
  answers: (UiResponse | PermissionResponse)[];
  /** `ui_response`s that did not match the protocol schema (the page must send none). */
  invalid: string[];
  nextAnswer(): Promise<UiResponse | PermissionResponse>;
  /** Refuse the next answer with this error instead of accepting it. */
  refuseNext(error: { code: string; message: string }): void;
  /** Close a request as the runtime would (another client or the end of the turn). */
  resolve(requestId: string, value: unknown): void;
}

const peers: Server<unknown>[] = [];
afterEach(() => {
  for (const server of peers.splice(0)) server.stop(true);
});

/** Checked against the protocol before it is sent: the page drops anything that is not valid. */
function valid<T extends object>(message: T): T {
  const ok =
    Value.Check(ResponseSchema, message) ||
    AGENT_EVENT_SCHEMAS.some((schema) => Value.Check(schema, message));
  if (!ok) throw new Error(`the peer would send an invalid message: ${JSON.stringify(message)}`);
  return message;
}

async function startPeer(pending: (UiRequest | PermissionRequest)[]): Promise<Peer> {
  const webDir = await builtWebDir();
  const answers: (UiResponse | PermissionResponse)[] = [];
  const invalid: string[] = [];
  const waiters: ((answer: UiResponse | PermissionResponse) => void)[] = [];
  let refusal: { code: string; message: string } | undefined;
  let socket: ServerWebSocket<unknown> | undefined;
  const send = (message: object) => socket?.send(JSON.stringify(valid(message)));
  const respond = (command: { id?: string; type: string }, extra: object = { success: true }) =>
    send({ type: "response", ...(command.id ? { id: command.id } : {}), command: command.type, ...extra });

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req, srv) {
      const path = new URL(req.url).pathname;
      if (path === "/ws") {
        const ok = srv.upgrade(req, { headers: { "Sec-WebSocket-Protocol": "shard.v1" }, data: undefined });
        return ok ? undefined : new Response("upgrade failed", { status: 400 });
      }
      if (path === "/bootstrap")
        return Response.json({ ticket: "peer-ticket", expires_at: Date.now() + 60_000 });
      const file = Bun.file(join(webDir, path === "/" ? "index.html" : path));
      const body = (await file.exists()) ? file : Bun.file(join(webDir, "index.html"));
      return new Response(body, { headers: { "Content-Security-Policy": CONTENT_SECURITY_POLICY } });
    },
    websocket: {
      open(ws) {
        socket = ws;
        send({ type: "hello", protocol_version: PROTOCOL_VERSION, server_version: "peer", capabilities: [] });
      },
      message(_ws, text) {
        const command = JSON.parse(String(text));
        switch (command.type) {
          case "agent.list":
            respond(command, {
              success: true,
              data: {
                agents: [
                  {
                    agent_id: AGENT,
                    cwd: "/tmp/peer",
                    status: "waiting_for_ui",
                    runtime_state: "running",
                    created_at: 1,
                  },
                ],
              },
            });
            return;
          case "agent.attach":
            respond(command);
            send({
              type: "sync",
              agent_id: AGENT,
              seq: 1,
              status: "waiting_for_ui",
              mode: "build",
              turn_id: "turn-1",
              live_window: { messages: [] },
              pending_requests: pending.map((r) => ({ ...r, agent_id: AGENT })),
            });
            return;
          case "ui_response": {
            if (!Value.Check(UiResponseSchema, command)) {
              invalid.push(JSON.stringify(command));
              return;
            }
            answers.push(command);
            for (const wake of waiters.splice(0)) wake(command);
            if (refusal !== undefined) {
              respond(command, { success: false, error: refusal, agent_id: AGENT });
              refusal = undefined;
              return;
            }
            respond(command, { success: true, agent_id: AGENT });
            send({
              type: "ui_resolved",
              agent_id: AGENT,
              request_id: command.request_id,
              value: command.value,
            });
            return;
          }
          case "permission_response": {
            if (!Value.Check(PermissionResponseSchema, command) || command.decision === undefined) {
              invalid.push(JSON.stringify(command));
              return;
            }
            answers.push(command);
            for (const wake of waiters.splice(0)) wake(command);
            respond(command, { success: true, agent_id: AGENT });
            send({
              type: "permission_resolved",
              agent_id: AGENT,
              request_id: command.request_id,
              decision: command.decision,
            });
            return;
          }
          default:
            respond(command, { success: true });
        }
      },
    },
  });
  peers.push(server);
  return {
    url: `http://127.0.0.1:${server.port}`,
    answers,
    invalid,
    nextAnswer: () => new Promise((resolve) => waiters.push(resolve)),
    refuseNext: (error) => {
      refusal = error;
    },
    resolve: (requestId, value) =>
      send({ type: "ui_resolved", agent_id: AGENT, request_id: requestId, value }),
  };
}

async function openPeer(peer: Peer): Promise<Page> {
  const page = await (await openContext()).newPage();
  await page.goto(`${peer.url}/?agent=${AGENT}`);
  await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
  return page;
}

const active = (page: Page, kind: string) =>
  page.locator(`[data-testid="ui-dialog"][data-kind="${kind}"][data-active="true"]`);

describe.skipIf(!HAVE_CHROMIUM)("confirm, editor and notify dialogs in Chromium", () => {
  test('answered in turn by keys: confirm y → "yes", editor Ctrl+Enter → its text, notify Enter → "ok"', async () => {
    const peer = await startPeer([
      {
        type: "ui_request",
        request_id: "r-confirm",
        kind: "confirm",
        title: "Delete build/?",
        message: "3 files",
      },
      {
        type: "ui_request",
        request_id: "r-editor",
        kind: "editor",
        title: "Commit message",
        prefill: "line one",
      },
      {
        type: "ui_request",
        request_id: "r-notify",
        kind: "notify",
        message: "Tests are slow today",
        notify_type: "warning",
      },
    ]);
    const page = await openPeer(peer);
    await active(page, "confirm").waitFor();
    expect(await page.getByTestId("dialogs-waiting").textContent()).toContain("2 more waiting");
    // Only the active dialog hears keys: "y" answers the confirm, not anything behind it.
    let answer = peer.nextAnswer();
    await page.keyboard.press("y");
    expect(await answer).toMatchObject({ request_id: "r-confirm", value: "yes", agent_id: AGENT });

    const editor = active(page, "editor");
    await editor.waitFor();
    const field = editor.getByTestId("ui-field");
    expect(await field.inputValue()).toBe("line one");
    await page.keyboard.press("Enter");
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Control+End");
    // In the editor Enter is a new line; Ctrl+Enter sends.
    await page.keyboard.press("Enter");
    await page.keyboard.type("line two");
    answer = peer.nextAnswer();
    await page.keyboard.press("Control+Enter");
    expect(await answer).toMatchObject({ request_id: "r-editor", value: "line one\nline two" });

    const notice = active(page, "notify");
    await notice.waitFor();
    expect(await notice.textContent()).toContain("Warning");
    expect(await notice.textContent()).toContain("Tests are slow today");
    // Answered from its field, the editor gave the caret back to the composer: Enter there would
    // send a message, so Esc first moves to the notice.
    expect(await page.getByTestId("composer-input").evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    await page.keyboard.press("Escape");
    answer = peer.nextAnswer();
    await page.keyboard.press("Enter");
    expect(await answer).toMatchObject({ request_id: "r-notify", value: "ok" });
    await notice.waitFor({ state: "detached" });
    expect(peer.answers).toHaveLength(3);
    expect(peer.invalid).toEqual([]);
  });

  test("a refused answer keeps the dialog open to answer again; a request closed elsewhere says so", async () => {
    const peer = await startPeer([
      { type: "ui_request", request_id: "r-confirm", kind: "confirm", title: "Push to origin?" },
      { type: "ui_request", request_id: "r-input", kind: "input", title: "Tag name", placeholder: "v1.2.3" },
    ]);
    const page = await openPeer(peer);
    const confirm = active(page, "confirm");
    await confirm.waitFor();

    peer.refuseNext({ code: "CONFLICT", message: "the request is being answered; try again" });
    let answer = peer.nextAnswer();
    await confirm.getByTestId("ui-no").click();
    expect(await answer).toMatchObject({ request_id: "r-confirm", value: "no" });
    await page.getByText("CONFLICT: the request is being answered; try again").waitFor();
    // Still open, buttons enabled again.
    await page.waitForFunction(() => {
      const button = document.querySelector<HTMLButtonElement>('[data-kind="confirm"] [data-testid="ui-no"]');
      return button !== null && !button.disabled;
    });
    answer = peer.nextAnswer();
    await page.getByTestId("composer-input").press("Escape");
    await page.keyboard.press("n");
    expect(await answer).toMatchObject({ request_id: "r-confirm", value: "no" });

    await active(page, "input").waitFor();
    peer.resolve("r-input", null);
    await page.locator('[data-testid="ui-dialog"]').waitFor({ state: "detached" });
    expect(await page.getByTestId("resolved-line").textContent()).toContain(
      "Tag name: closed without an answer",
    );
    expect(peer.invalid).toEqual([]);
  });

  test("legacy options only: y / a / n keys, answered with the decision form; details, or else the input, stay text", async () => {
    const payload = '<img src=x onerror="document.title=\'pwned\'"><script>document.title="pwned"</script>';
    const peer = await startPeer([
      {
        type: "permission_request",
        request_id: "r-legacy",
        tool_name: "write",
        input: { path: "notes.md" },
        prompt: "Allow write: notes.md?",
        options: ["allow", "allow_always", "deny"],
        details: [
          { label: "Path", value: "/tmp/peer/notes.md", format: "path" },
          { label: "Content", value: payload, format: "code" },
          { value: payload },
        ],
      },
      {
        type: "permission_request",
        request_id: "r-bare",
        tool_name: "bash",
        input: { command: payload },
        prompt: "Allow bash?",
        options: ["allow", "deny"],
      },
    ]);
    const page = await openPeer(peer);
    const dialog = page.locator('[data-testid="permission-dialog"][data-request-id="r-legacy"]');
    await dialog.waitFor();
    expect(await dialog.getByTestId("permission-choice").allTextContents()).toEqual([
      "yAllow",
      "aAlways allow",
      "nDeny",
    ]);
    const details = await dialog.getByTestId("permission-detail").allTextContents();
    expect(details[1]).toBe(`Content${payload}`);
    expect(details[2]).toBe(payload);
    expect(await dialog.locator("img, script").count()).toBe(0);

    // With details, the raw input is not repeated.
    expect(await dialog.getByTestId("permission-input").count()).toBe(0);
    const answer = peer.nextAnswer();
    await page.keyboard.press("a");
    expect(await answer).toMatchObject({ request_id: "r-legacy", decision: "allow_always" });
    expect(await answer).not.toHaveProperty("choice_id");
    await dialog.waitFor({ state: "detached" });
    // Next, a request with no details at all: the tool's input shows, as text.
    const bare = page.locator('[data-testid="permission-dialog"][data-request-id="r-bare"]');
    await bare.waitFor();
    expect(JSON.parse((await bare.getByTestId("permission-input").textContent()) ?? "")).toEqual({
      command: payload,
    });
    expect(await bare.locator("img, script").count()).toBe(0);
    // The payload did not rename the tab (the needs-you count may lead it: the agent waits).
    expect(await page.title()).toMatch(/^(\(\d+\) )?Shard$/);
    expect(peer.invalid).toEqual([]);
  });
});
