/**
 * `shard acp --daemon` beside the web control room, in a real Chromium against a real daemon
 * process: the editor's session is an agent the page opens; its permission request shows in
 * the page while the editor's dialog is open; answering in the page dismisses the editor's
 * dialog and the editor's turn ends. The screenshot (docs/screenshots/acp-daemon.png) puts the
 * editor's ACP transcript beside the page.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { AcpProcess, answerText } from "../acp/support/acp-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { enrolledPage, openAgent } from "./dialogs-page.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();
const SCREENSHOTS = join(import.meta.dir, "..", "..", "docs", "screenshots");
const editors: AcpProcess[] = [];
afterEach(async () => {
  await Promise.all(editors.splice(0).map((e) => e.close()));
});

describe.skipIf(!HAVE_CHROMIUM)("shard acp --daemon beside the web", () => {
  test("the editor's permission request is answered in the page: the editor's dialog closes and its turn ends", async () => {
    const daemon = await startDaemon();
    const editor = new AcpProcess(daemon.process.home, ["--daemon", "--model", "mock/chat"]);
    editors.push(editor);
    await editor.initialize();
    const { sessionId } = await editor.agent.request("session/new", { cwd: daemon.cwd, mcpServers: [] });
    const page = await enrolledPage(openContext, daemon.enrollmentUrl, { width: 900, height: 760 });
    await openAgent(page, daemon.url, sessionId);

    let asked: acp.RequestPermissionRequest | undefined;
    let dismissed = false;
    editor.onPermission = (request, signal) => {
      asked = request;
      return new Promise((resolve) => {
        signal.addEventListener("abort", () => {
          dismissed = true;
          resolve({ outcome: { outcome: "cancelled" } });
        });
      });
    };
    llm().enqueue(
      {
        steps: [
          { text: "Let me check the tests.", chunks: 2 },
          { tool_call: { name: "bash", args: { command: "bun test --bail" } } },
        ],
      },
      { steps: [{ text: "All tests pass." }] },
    );
    const prompt = editor.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "run the tests" }],
    });
    const dialog = page.getByTestId("permission-dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("bun test --bail");
    await editor.waitForUpdate(sessionId, (u) => u.sessionUpdate === "tool_call");
    expect(asked?.toolCall.title).toBe("bun test --bail");

    const web = await page.screenshot();
    const side = await (await openContext({ viewport: { width: 1460, height: 760 } })).newPage();
    await side.setContent(sideBySide(editor.updatesOf(sessionId), asked, web.toString("base64")));
    await side.screenshot({ path: join(SCREENSHOTS, "acp-daemon.png") });

    await dialog.getByTestId("permission-choice").first().click();
    expect((await prompt).stopReason).toBe("end_turn");
    expect(dismissed).toBe(true);
    expect(answerText(editor.updatesOf(sessionId))).toContain("All tests pass.");
  });
});

/** The editor's side as an ACP client shows it, beside the page's screenshot. */
function sideBySide(
  updates: readonly acp.SessionUpdate[],
  asked: acp.RequestPermissionRequest | undefined,
  webPng: string,
): string {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const lines: string[] = [`<div class="user">run the tests</div>`];
  let answer = "";
  for (const u of updates) {
    if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") answer += u.content.text;
    if (u.sessionUpdate === "tool_call") {
      if (answer) lines.push(`<div class="answer">${esc(answer)}</div>`);
      answer = "";
      lines.push(
        `<div class="tool"><b>${esc(u.kind ?? "other")}</b> <code>${esc(u.title)}</code> · ${u.status}</div>`,
      );
    }
  }
  if (answer) lines.push(`<div class="answer">${esc(answer)}</div>`);
  if (asked !== undefined) {
    const options = asked.options.map((o) => `<span class="opt">${esc(o.name)}</span>`).join("");
    lines.push(
      `<div class="ask">session/request_permission<br><code>${esc(asked.toolCall.title ?? "")}</code><div>${options}</div></div>`,
    );
  }
  return `<!doctype html><meta charset="utf-8"><style>
    body{margin:0;display:flex;font:14px system-ui,sans-serif;background:#1e1e1e}
    .editor{width:540px;height:760px;box-sizing:border-box;padding:16px;color:#ddd;background:#252526}
    h1{font-size:13px;color:#999;font-weight:600;margin:0 0 12px}
    .user{background:#37373d;padding:8px 10px;border-radius:6px;margin:8px 0}
    .answer{padding:6px 2px}
    .tool{border:1px solid #444;border-radius:6px;padding:8px 10px;margin:8px 0}
    .ask{border:1px solid #c9a227;border-radius:6px;padding:10px;margin:8px 0;color:#eee}
    .opt{display:inline-block;margin:8px 6px 0 0;padding:4px 8px;border:1px solid #666;border-radius:4px}
    code{font-family:ui-monospace,monospace;color:#9cdcfe}
    img{width:920px;height:760px;object-fit:contain;object-position:left top;background:#fff}
  </style><div class="editor"><h1>Editor · ACP client (shard acp --daemon)</h1>${lines.join("")}</div><img src="data:image/png;base64,${webPng}">`;
}
