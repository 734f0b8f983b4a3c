/**
 * A real nginx as the trusted TLS proxy in front of the daemon, running the nginx recipe of
 * docs/WEB-DEPLOYMENT.md as written there (read from the doc), with a self-signed certificate
 * made for the test. The test changes only what a reader changes: the listen address (a free
 * loopback port, not 443), the certificate paths, the daemon's port and, when asked, the server
 * name. Optionally a second, misconfigured server: the same recipe with one line gone wrong
 * (it passes the client's X-Forwarded-Host on).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../agent/support/agent-process.ts";
import { recipeBlocks, substitute } from "./deploy-recipes.ts";
import { type SelfSigned, selfSignedCert } from "./self-signed.ts";

export const NGINX_SECTION = "nginx";
/** The values the recipe is written with. */
export const RECIPE_HOST = "shard.example.com";
export const RECIPE_DAEMON_PORT = "7777";

export function findNginx(): string | undefined {
  for (const dir of [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin"]) {
    const path = join(dir, "nginx");
    if (dir !== "" && existsSync(path)) return path;
  }
  return undefined;
}

/** A port nobody listens on right now (nginx cannot be told to pick one). */
export function freePort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

export interface Nginx {
  tls: SelfSigned;
  /** nginx's access log (every request line it proxied). */
  accessLog: string;
  stop(): Promise<void>;
}

export interface NginxOptions {
  /** Where the recipe's server listens (instead of 443). */
  port: number;
  /** The daemon's port (instead of 7777). */
  upstreamPort: number;
  /** The server name; the recipe's own (shard.example.com) unless given. */
  serverName?: string;
  /** Also a misconfigured copy on this port: Host pinned to `misconfiguredHost`, X-Forwarded-Host passed on. */
  misconfigured?: { port: number; host: string };
  /** The certificate to serve; one is made for `serverName` and 127.0.0.1 unless given. */
  tls?: SelfSigned;
}

/** The recipe's nginx block for this test: `map` at http level, then the `server`. */
export function nginxRecipe(options: NginxOptions, tls: SelfSigned): { map: string; server: string } {
  const [block = ""] = recipeBlocks(NGINX_SECTION, "nginx");
  const serverAt = block.indexOf("server {");
  if (serverAt < 0) throw new Error("the nginx recipe has no server block");
  const server = substitute(block.slice(serverAt), [
    ["listen 443 ssl;", `listen 127.0.0.1:${options.port} ssl;`],
    [`server_name ${RECIPE_HOST};`, `server_name ${options.serverName ?? RECIPE_HOST};`],
    [`/etc/ssl/${RECIPE_HOST}/fullchain.pem`, tls.certPath],
    [`/etc/ssl/${RECIPE_HOST}/privkey.pem`, tls.keyPath],
    [`http://127.0.0.1:${RECIPE_DAEMON_PORT}`, `http://127.0.0.1:${options.upstreamPort}`],
  ]);
  return { map: block.slice(0, serverAt), server };
}

export async function startNginx(options: NginxOptions): Promise<Nginx> {
  const nginx = findNginx();
  if (!nginx) throw new Error("nginx is not installed (apt-get install nginx; .ci/run installs it)");
  const dir = tempDir("nginx");
  mkdirSync(join(dir, "tmp"));
  const tls =
    options.tls ?? selfSignedCert(dir, { dns: [options.serverName ?? RECIPE_HOST], ip: ["127.0.0.1"] });
  const recipe = nginxRecipe(options, tls);
  const servers = [recipe.server];
  if (options.misconfigured) {
    servers.push(
      substitute(recipe.server, [
        [`listen 127.0.0.1:${options.port} ssl;`, `listen 127.0.0.1:${options.misconfigured.port} ssl;`],
        ["proxy_set_header Host $http_host;", `proxy_set_header Host ${options.misconfigured.host};`],
        [
          "proxy_set_header X-Forwarded-Host $http_host;",
          "proxy_set_header X-Forwarded-Host $http_x_forwarded_host;",
        ],
      ]),
    );
  }
  // What the recipe is: a conf.d file (http level). Around it, what a test run needs: no
  // daemonizing, and every path in the test's own folder.
  const recipePath = join(dir, "shard.conf");
  writeFileSync(recipePath, `${recipe.map}\n${servers.join("\n")}`);
  const tmp = join(dir, "tmp");
  const confPath = join(dir, "nginx.conf");
  writeFileSync(
    confPath,
    `daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
events { worker_connections 64; }
http {
  access_log ${join(dir, "access.log")};
  client_body_temp_path ${tmp}; proxy_temp_path ${tmp};
  fastcgi_temp_path ${tmp}; uwsgi_temp_path ${tmp}; scgi_temp_path ${tmp};
  include ${recipePath};
}
`,
  );
  const proc = Bun.spawn([nginx, "-p", dir, "-e", join(dir, "error.log"), "-c", confPath], {
    stdout: "ignore",
    stderr: "pipe",
  });
  await waitForPort(options.port, async () =>
    proc.exitCode === null
      ? undefined
      : `nginx exited ${proc.exitCode}: ${await new Response(proc.stderr).text()} ${readFileSync(join(dir, "error.log"), "utf8")}`,
  );
  return {
    tls,
    accessLog: join(dir, "access.log"),
    stop: async () => {
      proc.kill();
      await proc.exited;
    },
  };
}

/** Waits until the proxy accepts connections; `crashed` says why it is gone, if it is. */
export async function waitForPort(port: number, crashed: () => Promise<string | undefined>): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const why = await crashed();
    if (why !== undefined) throw new Error(why);
    try {
      const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
      socket.end();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`the proxy did not listen on ${port}: ${String(err)}`);
      await Bun.sleep(25);
    }
  }
}
