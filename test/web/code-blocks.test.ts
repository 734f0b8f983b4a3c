/**
 * Code blocks in Chromium, under the page's own CSP (issue 20, item 7): highlighted once final
 * (the highlighter loaded lazily, from the page's origin), plain while the fence is still
 * streaming; the language label sits above the code, not over its first line; the copy button
 * puts the code on the clipboard. A hostile block stays text: no element, no script, whatever
 * the code or its info string says.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { openAgentPage, prompt, turnEnd } from "./support/agent-page.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);
const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

const TS =
  'const greeting: string = "hi"; // says hi\nexport function twice(n: number) {\n  return n * 2;\n}';
const HOSTILE_HTML =
  '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>\n</code></pre><b onclick=alert(1)>x</b>';
const HOSTILE_TS =
  '</span><img src=x onerror="window.__pwned=3">"</span>\nconst s = "<svg onload=alert(1)>";';

describe.skipIf(!HAVE_CHROMIUM)("code blocks in Chromium", () => {
  test("highlighted once final, plain while streaming; label above the code; copy; hostile code stays text", async () => {
    const daemon = await startDaemon();
    const context = await openContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: daemon.url });
    const agent = await openAgentPage(daemon, context);
    const { page } = agent;
    const violations: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") violations.push(m.text());
    });

    llm().enqueue({
      steps: [
        { text: `Here:\n\n\`\`\`ts\n${TS.slice(0, 30)}`, chunks: 2 },
        { hold: "fence" },
        {
          text: `${TS.slice(30)}\n\`\`\`\n\n\`\`\`html\n${HOSTILE_HTML}\n\`\`\`\n\n\`\`\`ts"><img src=x onerror="window.__pwned=4">\n${HOSTILE_TS}\n\`\`\`\n`,
          chunks: 3,
        },
      ],
    });
    const from = agent.client.messages.length;
    await prompt(agent, "show code");
    await llm().waitForHold("fence");
    // The fence is still open: its code is there as text, not highlighted yet.
    const live = page.getByTestId("streaming-message").getByTestId("code-block");
    await live.locator("code", { hasText: "const greeting" }).waitFor();
    expect(await live.locator("code span").count()).toBe(0);
    llm().release("fence");
    await turnEnd(agent, from);

    const blocks = page.locator('[data-testid="message"][data-role="assistant"] [data-testid="code-block"]');
    await blocks.nth(2).waitFor();
    const ts = blocks.nth(0);
    await ts.locator("code.hljs").waitFor();
    expect(await ts.locator("code").textContent()).toBe(TS);
    expect(await ts.locator("code .hljs-keyword").first().textContent()).toBe("const");
    expect(await ts.locator("code .hljs-string").first().textContent()).toBe('"hi"');
    expect(await ts.locator("code .hljs-comment").first().textContent()).toBe("// says hi");

    // The label is above the code's first line, not over it.
    expect(await ts.getByTestId("code-lang").textContent()).toBe("ts");
    const label = await ts.getByTestId("code-lang").boundingBox();
    const code = await ts.locator("pre").boundingBox();
    expect(label !== null && code !== null && label.y + label.height <= code.y).toBe(true);

    // Copy puts exactly the code on the clipboard.
    await ts.getByTestId("code-copy").click();
    await ts.getByTestId("code-copy").getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(TS);

    // Hostile code, highlighted or not, is text: no element from it, no script ran.
    const html = blocks.nth(1);
    await html.locator("code.hljs").waitFor();
    expect(await html.locator("code").textContent()).toBe(HOSTILE_HTML);
    // An info string that names no language: the label says what it says, the code stays plain.
    const odd = blocks.nth(2);
    expect(await odd.locator("code").textContent()).toBe(HOSTILE_TS);
    expect(await odd.locator("code span").count()).toBe(0);
    expect(await odd.getByTestId("code-lang").textContent()).toBe('ts"><img');
    const answer = page.locator('[data-testid="message"][data-role="assistant"]');
    expect(await answer.locator("img, script, svg, b").count()).toBe(0);
    // The highlighter's spans carry token classes and nothing else.
    const attributes = await answer.evaluate((root) =>
      [...root.querySelectorAll("code *")].flatMap((el) => [
        el.tagName,
        ...[...el.attributes].map((a) =>
          a.name === "class" ? a.value.replace(/hljs-[a-z_-]+/g, "") : a.name,
        ),
      ]),
    );
    expect(new Set(attributes.map((a) => a.trim()).filter((a) => a !== ""))).toEqual(new Set(["SPAN"]));
    expect(await page.evaluate(() => Reflect.get(window, "__pwned"))).toBeUndefined();
    expect(violations.filter((v) => v.includes("Content Security Policy"))).toEqual([]);
  });
});
