/**
 * An in-process daemon with its real browser authentication (no test authenticator), on a
 * temporary SHARD_HOME, plus the requests a browser makes: POST /enroll, POST /bootstrap, the
 * ticketed upgrade. No runtime is ever started by these tests.
 */
import { join } from "node:path";
import type { Clock } from "../../../src/daemon/auth/clock.ts";
import { type RunningDaemon, startDaemon } from "../../../src/daemon/daemon.ts";
import type { WebConfig } from "../../../src/daemon/http/web-config.ts";
import { tempDir } from "../../agent/support/agent-process.ts";
import { CHILD_ENV } from "../../support/child-env.ts";
import { DaemonClient } from "../support/daemon-client.ts";
import { type RawResponse, rawRequest } from "./raw-http.ts";

export interface AuthDaemonOptions {
  web?: WebConfig;
  clock?: Clock;
  home?: string;
  webDir?: string;
  wsIdleTimeoutS?: number;
}

export class AuthDaemon {
  /** The Host and Origin a browser on the daemon's own page sends. */
  host: string;
  origin: string;
  private readonly unixClients: DaemonClient[] = [];

  private constructor(
    readonly home: string,
    readonly daemon: RunningDaemon,
  ) {
    this.host = `127.0.0.1:${daemon.port}`;
    this.origin = `http://127.0.0.1:${daemon.port}`;
  }

  static async start(options: AuthDaemonOptions = {}): Promise<AuthDaemon> {
    const home = options.home ?? tempDir("auth-home");
    const started = await startDaemon({
      home,
      port: 0,
      env: { ...CHILD_ENV, HOME: home, SHARD_HOME: home },
      ...(options.web ? { web: options.web } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.wsIdleTimeoutS !== undefined ? { wsIdleTimeoutS: options.wsIdleTimeoutS } : {}),
      // Never the checkout's web/dist, which may or may not be built.
      webDir: options.webDir ?? tempDir("auth-web"),
    });
    if (!started.ok) throw new Error(started.message);
    return new AuthDaemon(home, started.daemon);
  }

  get port(): number {
    return this.daemon.port;
  }

  /** The code of the enrollment URL printed at start. */
  firstCode(): string {
    return codeOf(this.daemon.enrollmentUrl ?? "");
  }

  async unix(): Promise<DaemonClient> {
    const client = await DaemonClient.unix(join(this.home, "daemon.sock"));
    this.unixClients.push(client);
    return client;
  }

  /** A fresh code, as `shard auth enroll` gets it. */
  async mintCode(): Promise<string> {
    const data = await (await this.unix()).ok({ type: "auth.enroll" });
    return codeOf(String(data.url));
  }

  enroll(
    code: string,
    headers: Record<string, string | undefined> = {},
    method = "POST",
  ): Promise<RawResponse> {
    return rawRequest(this.port, {
      method,
      path: "/enroll",
      headers: { Host: this.host, Origin: this.origin, "Content-Type": "application/json", ...headers },
      body: JSON.stringify({ code }),
    });
  }

  /** Enrolls a browser and returns its `Cookie` header value. */
  async enrolledCookie(headers: Record<string, string | undefined> = {}): Promise<string> {
    const res = await this.enroll(await this.mintCode(), headers);
    if (res.status !== 200) throw new Error(`enroll answered ${res.status}: ${res.body}`);
    return cookieOf(res);
  }

  bootstrap(
    cookie: string | undefined,
    headers: Record<string, string | undefined> = {},
    method = "POST",
  ): Promise<RawResponse> {
    return rawRequest(this.port, {
      method,
      path: "/bootstrap",
      headers: { Host: this.host, Origin: this.origin, Cookie: cookie, ...headers },
      ...(method === "POST" ? { body: "" } : {}),
    });
  }

  /** A ticket of a newly enrolled browser. */
  async ticket(headers: Record<string, string | undefined> = {}): Promise<string> {
    const res = await this.bootstrap(await this.enrolledCookie(headers), headers);
    if (res.status !== 200) throw new Error(`bootstrap answered ${res.status}: ${res.body}`);
    return String(JSON.parse(res.body).ticket);
  }

  async stop(): Promise<void> {
    for (const c of this.unixClients) c.close();
    await this.daemon.stop(true);
  }
}

export function codeOf(url: string): string {
  const code = /#enroll=([A-Za-z0-9_-]+)$/.exec(url)?.[1];
  if (!code) throw new Error(`no enrollment code in ${JSON.stringify(url)}`);
  return code;
}

/** `name=value` of the response's Set-Cookie, ready for a Cookie header. */
export function cookieOf(res: RawResponse): string {
  const set = res.header("set-cookie");
  if (!set) throw new Error(`no Set-Cookie in the ${res.status} answer: ${res.body}`);
  return set.split(";")[0] ?? "";
}
