/**
 * The page holds a socket that runs commands, so an XSS is an RCE (issue 10, "Safety of what is
 * shown"). In a real Chromium, against a real daemon, agent and mock LLM, script payloads go
 * through every renderer: assistant text (Markdown), thinking, tool arguments, tool results,
 * every RenderDescriptor kind, an agent's name, permission details and ui_request texts. The
 * page's CSP is switched off for this test, so only the renderers stand between a payload and
 * execution. Nothing may run, no payload may become an element or an event-handler attribute,
 * no `javascript:` link may exist, and the payloads must be visible as text. A positive control
 * at the end shows the detector does catch a payload that is injected as HTML.
 *
 * `write`, `ls`, `read`, `edit`, `bash` and `ask` are driven for real (file names and contents
 * carry payloads). No built-in tool emits `tree`, `progress` or `status` descriptors (nor a
 * `kv` with strings), so those arrive as a hostile runtime would send them: injected into the
 * page's real WebSocket (Playwright's routeWebSocket), schema-valid, after the real events.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page, WebSocketRoute } from "playwright-core";
import type { Msg } from "../daemon/support/daemon-client.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { type AgentPage, openAgentPage, prompt, turnEnd } from "./support/agent-page.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(120_000);
const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

/** Each payload calls `__pwn(label)` (or `alert`) if it ever runs. */
const html = (label: string) =>
  [
    `<img src=x onerror="__pwn('${label}-img')">`,
    `<script>__pwn('${label}-script')</script>`,
    `<svg onload="__pwn('${label}-svg')"><circle r=1 /></svg>`,
    `<a href="javascript:__pwn('${label}-a')">raw anchor</a>`,
    `<iframe src="javascript:__pwn('${label}-iframe')"></iframe>`,
    `<details open ontoggle="__pwn('${label}-details')">d</details>`,
  ].join("\n");

const MARKDOWN_TRICKS = [
  "[click me](javascript:__pwn('md-link'))",
  "[upper](JAVASCRIPT:__pwn('md-upper'))",
  "[entity](&#106;avascript:__pwn('md-entity'))",
  "[data](data:text/html;base64,PHNjcmlwdD5fX3B3bignZGF0YScpPC9zY3JpcHQ+)",
  "[vb](vbscript:msgbox(1))",
  "[relative](./x)",
  "![image](x\" onerror=\"__pwn('md-img'))",
  "![js image](javascript:__pwn('md-img-js'))",
  "<javascript:__pwn('md-autolink')>",
  "[ref link][r]",
  "",
  "[r]: javascript:__pwn('md-ref')",
  "",
  "```\"><img src=x onerror=__pwn('md-lang')>",
  "<script>__pwn('md-fence')</script>",
  "```",
  "",
  "[fine](https://example.com/ok)",
].join("\n");

/** Payloads without `/`, so they can be file names. */
const FILE_NAME = `<img src=x onerror=__pwn('file')><svg onload=__pwn('file-svg')>.md`;
const FILE_TEXT = `${html("content")}\nsecond line\n`;
const NEW_LINE = `<img src=x onerror="__pwn('edit')">`;
const COMMAND = `printf '%s\\n' "<img src=x onerror=__pwn('bash-out')>" "<svg onload=__pwn('bash-svg')>"`;
const QUESTION = `<img src=x onerror="__pwn('ask-q')"> which?`;
const OPTIONS = [`<svg onload="__pwn('ask-a')">`, `<script>__pwn('ask-b')</script>`];
const AGENT_NAME = `<img src=x onerror="__pwn('name')"><script>__pwn('name-script')</script>`;

/** Everything in #root a payload could have turned into: dangerous elements, handlers, links. */
function findInjected(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.getElementById("root");
    if (root === null) return ["no #root"];
    const transcript = root.querySelector('[data-testid="transcript"]');
    for (const element of root.querySelectorAll("*")) {
      const tag = element.tagName.toLowerCase();
      if (["script", "iframe", "object", "embed", "frame", "base", "meta", "link"].includes(tag))
        found.push(tag);
      const inTranscript = transcript?.contains(element) ?? false;
      if (inTranscript && (tag === "svg" || tag === "math")) found.push(`${tag} in the transcript`);
      if (tag === "img" && !(element.getAttribute("src") ?? "").startsWith("data:image/")) {
        found.push(`img src=${element.getAttribute("src")}`);
      }
      for (const attribute of element.attributes) {
        if (attribute.name.startsWith("on")) found.push(`${tag}[${attribute.name}]`);
        if (["href", "src", "action", "formaction", "xlink:href"].includes(attribute.name)) {
          const value = attribute.value.replace(/[\u0000-\u0020]+/g, "").toLowerCase();
          if (/^(javascript|vbscript|data:text)/.test(value))
            found.push(`${tag}[${attribute.name}=${attribute.value}]`);
        }
      }
      if (tag === "a" && element.hasAttribute("href")) {
        const href = element.getAttribute("href") ?? "";
        if (!/^(https?:\/\/|mailto:)/i.test(href)) found.push(`a href=${href}`);
      }
    }
    return found;
  });
}

async function expectSafe(page: Page, pwned: () => Promise<string[]>, where: string): Promise<void> {
  expect({ where, injected: await findInjected(page) }).toEqual({ where, injected: [] });
  expect({ where, ran: await pwned() }).toEqual({ where, ran: [] });
}

/**
 * Scrolls the transcript from top to bottom a screen at a time; at each stop checks the page
 * for injected markup and collects the text of every selector. Returns each selector's text.
 */
async function sweep(
  page: Page,
  pwned: () => Promise<string[]>,
  selectors: string[],
): Promise<(selector: string) => string> {
  const texts = new Map<string, Set<string>>(selectors.map((s) => [s, new Set<string>()]));
  const scroller = page.getByTestId("transcript-scroll");
  await scroller.evaluate((el) => {
    el.scrollTop = 0;
  });
  for (let stop = 0; ; stop++) {
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await expectSafe(page, pwned, `sweep stop ${stop}`);
    for (const selector of selectors) {
      for (const text of await page.locator(selector).allTextContents()) texts.get(selector)?.add(text);
    }
    const atEnd = await scroller.evaluate((el) => {
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) return true;
      el.scrollTop += el.clientHeight * 0.8;
      return false;
    });
    if (atEnd) break;
  }
  return (selector) => [...(texts.get(selector) ?? [])].join("\n");
}

describe.skipIf(!HAVE_CHROMIUM)("nothing the model, a tool or a file says runs in the page", () => {
  test("payloads through every renderer stay text", async () => {
    const daemon = await startDaemon();
    writeFileSync(join(daemon.cwd, "plain.txt"), "plain\n");
    const context = await openContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    await context.addInitScript(() => {
      const ran: string[] = [];
      Object.assign(window, { __ran: ran, __pwn: (label: string) => ran.push(label) });
    });
    // The page's socket, with a handle to push what a hostile runtime would send.
    let socket: WebSocketRoute | undefined;
    await context.routeWebSocket(/\/ws/, (route) => {
      route.connectToServer();
      socket = route;
    });
    const dialogs: string[] = [];
    context.on("page", (opened) =>
      opened.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      }),
    );

    llm().enqueue(
      {
        steps: [
          { thinking: `thinking ${html("thinking")}`, chunks: 3 },
          { text: `${html("text")}\n\n${MARKDOWN_TRICKS}`, chunks: 7 },
          { tool_call: { name: "write", args: { path: FILE_NAME, content: FILE_TEXT } } },
        ],
      },
      {
        steps: [
          { tool_call: { name: "ls", args: { path: "." } } },
          { tool_call: { name: "read", args: { path: FILE_NAME } } },
        ],
      },
      {
        steps: [
          {
            tool_call: {
              name: "edit",
              args: { path: FILE_NAME, old_string: FILE_TEXT.split("\n")[0] ?? "", new_string: NEW_LINE },
            },
          },
        ],
      },
      { steps: [{ tool_call: { name: "bash", args: { command: COMMAND } } }] },
      { steps: [{ tool_call: { name: "ask", args: { question: QUESTION, options: OPTIONS } } }] },
      { steps: [{ text: "All done." }] },
    );

    const agent = await openAgentPage(daemon, context, { name: AGENT_NAME });
    const { page } = agent;
    const pwned = () => page.evaluate(() => [...((window as unknown as { __ran: string[] }).__ran ?? [])]);
    const from = agent.client.messages.length;
    await prompt(agent, html("prompt"));

    // write, edit and bash ask: the dialog shows their details, then the local client allows.
    for (const tool of ["write", "edit", "bash"]) {
      const request = await agent.client.waitAgent(
        agent.agentId,
        "permission_request",
        from,
        (m) => m.tool_name === tool,
      );
      const dialog = page
        .getByTestId("permission-dialog")
        .filter({ has: page.getByRole("heading", { name: tool, exact: true }) });
      await dialog.waitFor();
      const shown = (await dialog.textContent()) ?? "";
      expect(shown).toContain(
        tool === "bash" ? "<img src=x onerror=__pwn('bash-out')>" : "<img src=x onerror=__pwn('file')>",
      );
      await expectSafe(page, pwned, `permission dialog of ${tool}`);
      await allow(agent, request);
    }

    const ask = await agent.client.waitAgent(agent.agentId, "ui_request", from);
    const uiDialog = page.getByTestId("ui-dialog");
    await uiDialog.waitFor();
    const asked = (await uiDialog.textContent()) ?? "";
    expect(asked).toContain(QUESTION);
    for (const option of OPTIONS) expect(asked).toContain(option);
    await expectSafe(page, pwned, "ui dialog");
    await agent.client.ok({
      type: "ui_response",
      agent_id: agent.agentId,
      request_id: ask.request_id,
      value: OPTIONS[0],
    });
    await turnEnd(agent, from);
    // The daemon said it (so a miss below is the page's), then the page shows it.
    await agent.client.waitAgent(agent.agentId, "message_complete", from, (m) =>
      JSON.stringify(m.message).includes("All done."),
    );
    await page.getByText("All done.").waitFor();

    // Descriptors no built-in tool emits, pushed into the page's real socket as a hostile runtime would.
    if (socket === undefined) throw new Error("the page opened no WebSocket");
    for (const event of hostileEvents(agent.agentId)) socket.send(JSON.stringify(event));
    await page.getByTestId("descriptor-tree").waitFor();
    await page.locator('[data-testid="descriptor-status"]').waitFor();

    await expectSafe(page, pwned, "the whole transcript");
    expect(dialogs).toEqual([]);

    // Every payload is on the page, as text: the list is virtualized, so sweep it top to bottom.
    const seen = await sweep(page, pwned, [
      '[data-testid="agent-row"]',
      '[data-role="user"]',
      '[data-role="assistant"] [data-testid="markdown"]',
      '[data-testid="markdown"] a[href="https://example.com/ok"]',
      '[data-testid="thinking"]',
      '[data-tool="write"] [data-testid="descriptor-code"]',
      '[data-tool="write"] [data-testid="tool-args"]',
      '[data-tool="ls"] [data-testid="descriptor-path_list"]',
      '[data-tool="read"] [data-testid="descriptor-code"]',
      '[data-tool="edit"] [data-testid="descriptor-diff"]',
      '[data-tool="bash"] [data-testid="descriptor-command"]',
      '[data-tool="bash"] [data-testid="tool-output"]',
      '[data-tool="ask"] [data-testid="descriptor-text"]',
      '[data-testid="descriptor-tree"]',
      '[data-testid="descriptor-kv"]',
      '[data-testid="descriptor-progress"]',
      '[data-testid="descriptor-status"]',
      '[data-tool="probe-b"] [data-testid="tool-output"]',
    ]);
    const expectText = (selector: string, ...texts: string[]) => {
      for (const text of texts)
        expect({ selector, has: seen(selector).includes(text) ? text : seen(selector) }).toEqual({
          selector,
          has: text,
        });
    };
    expectText('[data-testid="agent-row"]', AGENT_NAME);
    expectText('[data-role="user"]', html("prompt"));
    expectText(
      '[data-role="assistant"] [data-testid="markdown"]',
      `<img src=x onerror="__pwn('text-img')">`,
      "<script>__pwn('text-script')</script>",
      "[click me](javascript:__pwn('md-link'))",
      "<script>__pwn('md-fence')</script>",
    );
    expectText('[data-testid="markdown"] a[href="https://example.com/ok"]', "fine");
    expectText('[data-testid="thinking"]', `<svg onload="__pwn('thinking-svg')">`);
    expectText(
      '[data-tool="write"] [data-testid="descriptor-code"]',
      FILE_NAME,
      "<script>__pwn('content-script')</script>",
    );
    expectText('[data-tool="write"] [data-testid="tool-args"]', FILE_NAME);
    expectText('[data-tool="ls"] [data-testid="descriptor-path_list"]', FILE_NAME);
    expectText(
      '[data-tool="read"] [data-testid="descriptor-code"]',
      `<iframe src="javascript:__pwn('content-iframe')"></iframe>`,
    );
    expectText('[data-tool="edit"] [data-testid="descriptor-diff"]', FILE_NAME, `+${NEW_LINE}`);
    expectText('[data-tool="bash"] [data-testid="descriptor-command"]', COMMAND);
    expectText('[data-tool="bash"] [data-testid="tool-output"]', "<svg onload=__pwn('bash-svg')>");
    expectText('[data-tool="ask"] [data-testid="descriptor-text"]', QUESTION);
    expectText('[data-testid="descriptor-tree"]', html("tree"), `<svg onload="__pwn('tree-child')">`);
    expectText('[data-testid="descriptor-kv"]', html("kv-key"), html("kv"));
    expectText('[data-testid="descriptor-progress"]', html("progress"));
    expectText('[data-testid="descriptor-status"]', html("status"));
    expectText('[data-tool="probe-b"] [data-testid="tool-output"]', html("result"));

    // Positive control: the same payload injected as HTML is caught by both checks.
    await page.evaluate(() => {
      const probe = document.createElement("div");
      probe.id = "control";
      probe.innerHTML = `<img src=x onerror="__pwn('control')">`;
      document.getElementById("root")?.appendChild(probe);
    });
    await page.waitForFunction(() => (window as unknown as { __ran: string[] }).__ran.includes("control"));
    expect(await findInjected(page)).toEqual(["img src=x", "img[onerror]"]);
  });
});

async function allow(agent: AgentPage, request: Msg): Promise<void> {
  await agent.client.ok({
    type: "permission_response",
    agent_id: agent.agentId,
    request_id: request.request_id,
    choice_id: "allow_once",
  });
}

/** Two calls with the descriptor kinds no built-in tool emits, all strings payloads. */
function hostileEvents(agentId: string): object[] {
  const calls = [
    {
      id: "call_probe_a",
      name: "probe-a",
      render: tree(),
      result: { kind: "kv", pairs: [{ k: html("kv-key"), v: html("kv") }] },
    },
    {
      id: "call_probe_b",
      name: "probe-b",
      render: { kind: "progress", label: html("progress"), current: 2, total: 5 },
      result: { kind: "status", label: html("status"), tone: "error" },
    },
  ];
  return [
    {
      type: "message_complete",
      agent_id: agentId,
      message_id: "msg_hostile",
      message: {
        id: "msg_hostile",
        role: "assistant",
        content: calls.map((c) => ({
          type: "tool_call",
          id: c.id,
          name: c.name,
          args: { note: html("args") },
        })),
      },
    },
    ...calls.flatMap((c) => [
      {
        type: "tool_call",
        agent_id: agentId,
        tool_call_id: c.id,
        name: c.name,
        args: { note: html("args") },
        render: c.render,
      },
      {
        type: "tool_result",
        agent_id: agentId,
        tool_call_id: c.id,
        message_id: `msg_result_${c.id}`,
        content: { kind: "text", text: html("result") },
        is_error: true,
        render: c.result,
        duration_ms: 3,
      },
    ]),
  ];
}

function tree(): object {
  return {
    kind: "tree",
    root: {
      name: html("tree"),
      kind: "dir",
      children: [{ name: `<svg onload="__pwn('tree-child')">`, kind: "file" }],
    },
  };
}
