/**
 * The system Chromium driven over the bare DevTools protocol for the measurements. Playwright
 * enables the Network domain on every page, and Chromium then copies every WebSocket frame to
 * the driver — at 10,000 deltas that is most of the page's work, so the streaming numbers would
 * measure the harness. Here only Page and Runtime are enabled: the page runs as it would for a
 * user, with the probe (bench/support/page-probe.ts) added before its scripts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CHROMIUM = process.env.SHARD_CHROMIUM ?? "/usr/bin/chromium";

type Json = Record<string, unknown>;

export class CdpBrowser {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(v: Json): void; reject(e: Error): void }>();
  private readonly listeners: ((method: string, params: Json, sessionId?: string) => void)[] = [];

  private constructor(
    private readonly proc: Bun.Subprocess,
    private readonly ws: WebSocket,
    private readonly profileDir: string,
  ) {
    ws.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as Json;
      if (typeof message.id === "number") {
        const waiter = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        if (message.error !== undefined) waiter?.reject(new Error(JSON.stringify(message.error)));
        else waiter?.resolve((message.result ?? {}) as Json);
        return;
      }
      const sessionId = typeof message.sessionId === "string" ? message.sessionId : undefined;
      for (const listen of this.listeners)
        listen(String(message.method), (message.params ?? {}) as Json, sessionId);
    };
  }

  static async launch(): Promise<CdpBrowser> {
    const profileDir = mkdtempSync(join(tmpdir(), "shard-bench-chromium-"));
    const proc = Bun.spawn(
      [
        CHROMIUM,
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--remote-debugging-port=0",
        `--user-data-dir=${profileDir}`,
        "--window-size=1280,800",
        "about:blank",
      ],
      { stdin: "ignore", stdout: "ignore", stderr: "pipe" },
    );
    const reader = proc.stderr.getReader();
    let err = "";
    let endpoint: string | undefined;
    while (endpoint === undefined) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`chromium exited: ${err}`);
      err += new TextDecoder().decode(chunk.value);
      endpoint = /DevTools listening on (ws:\/\/\S+)/.exec(err)?.[1];
    }
    void (async () => {
      for (;;) if ((await reader.read()).done) return;
    })();
    const ws = new WebSocket(endpoint);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("cannot reach Chromium's DevTools endpoint"));
    });
    return new CdpBrowser(proc, ws, profileDir);
  }

  send(method: string, params: Json = {}, sessionId?: string): Promise<Json> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, method, params, ...(sessionId !== undefined ? { sessionId } : {}) }));
    });
  }

  on(listen: (method: string, params: Json, sessionId?: string) => void): void {
    this.listeners.push(listen);
  }

  /** A new tab with `script` evaluated before any of its documents' own scripts. */
  async newPage(script: string): Promise<CdpPage> {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    if (typeof sessionId !== "string") throw new Error("no CDP session");
    const page = new CdpPage(this, sessionId);
    await page.send("Page.enable");
    await page.send("Runtime.enable");
    await page.send("Page.addScriptToEvaluateOnNewDocument", { source: script });
    return page;
  }

  async close(): Promise<void> {
    this.ws.close();
    this.proc.kill("SIGTERM");
    await this.proc.exited;
    rmSync(this.profileDir, { recursive: true, force: true });
  }
}

export class CdpPage {
  constructor(
    private readonly browser: CdpBrowser,
    private readonly sessionId: string,
  ) {}

  send(method: string, params: Json = {}): Promise<Json> {
    return this.browser.send(method, params, this.sessionId);
  }

  async goto(url: string): Promise<void> {
    const loaded = new Promise<void>((resolve) => {
      this.browser.on((method, _params, sessionId) => {
        if (method === "Page.loadEventFired" && sessionId === this.sessionId) resolve();
      });
    });
    await this.send("Page.navigate", { url });
    await loaded;
  }

  /** Evaluates `expression` in the page (awaiting a promise) and returns its JSON value. */
  async evaluate<T>(expression: string): Promise<T> {
    const result = await this.send("Runtime.evaluate", {
      expression,
      awaitPromise: true,
      returnByValue: true,
    });
    if (result.exceptionDetails !== undefined) throw new Error(JSON.stringify(result.exceptionDetails));
    return (result.result as { value: T }).value;
  }

  /** Polls `expression` until it is truthy (page-side conditions; the bench's own waiting). */
  async waitFor(expression: string, timeoutMs = 60_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!(await this.evaluate<boolean>(`Boolean(${expression})`))) {
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
      await Bun.sleep(20);
    }
  }
}
