/**
 * A real nginx as the trusted TLS proxy in front of the daemon, with a self-signed certificate
 * made for the test (openssl). Two servers: the recipe from docs/WEB-DEPLOYMENT.md, and a
 * misconfigured one that passes the client's X-Forwarded-Host through (a proxy gone wrong).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../agent/support/agent-process.ts";

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
  /** The CA (the certificate itself) clients trust. */
  cert: string;
  stop(): Promise<void>;
}

export async function startNginx(options: {
  port: number;
  misconfiguredPort: number;
  publicHost: string;
  upstreamPort: number;
}): Promise<Nginx> {
  const nginx = findNginx();
  if (!nginx) throw new Error("nginx is not installed (apt-get install nginx; .ci/run installs it)");
  const dir = tempDir("nginx");
  mkdirSync(join(dir, "tmp"));
  const certPath = join(dir, "cert.pem");
  const keyPath = join(dir, "key.pem");
  const openssl = Bun.spawnSync(
    [
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      keyPath,
      "-out",
      certPath,
    ],
    { stderr: "pipe", stdout: "ignore" },
  );
  if (openssl.exitCode !== 0) throw new Error(`openssl failed: ${openssl.stderr.toString()}`);
  const proxied = (hostLine: string, forwardedHostLine: string) => `
      location / {
        proxy_pass http://127.0.0.1:${options.upstreamPort};
        proxy_http_version 1.1;
        ${hostLine}
        ${forwardedHostLine}
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_read_timeout 1h;
      }`;
  const tls = `ssl_certificate ${certPath}; ssl_certificate_key ${keyPath};`;
  const conf = `
daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
events { worker_connections 64; }
http {
  access_log ${join(dir, "access.log")};
  client_body_temp_path ${join(dir, "tmp")}; proxy_temp_path ${join(dir, "tmp")};
  fastcgi_temp_path ${join(dir, "tmp")}; uwsgi_temp_path ${join(dir, "tmp")}; scgi_temp_path ${join(dir, "tmp")};
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  server {
    listen 127.0.0.1:${options.port} ssl;
    ${tls}
    ${proxied("proxy_set_header Host $http_host;", "proxy_set_header X-Forwarded-Host $http_host;")}
  }
  server {
    listen 127.0.0.1:${options.misconfiguredPort} ssl;
    ${tls}
    ${proxied(`proxy_set_header Host ${options.publicHost};`, "proxy_set_header X-Forwarded-Host $http_x_forwarded_host;")}
  }
}
`;
  const confPath = join(dir, "nginx.conf");
  writeFileSync(confPath, conf);
  const proc = Bun.spawn([nginx, "-p", dir, "-e", join(dir, "error.log"), "-c", confPath], {
    stdout: "ignore",
    stderr: "pipe",
  });
  const cert = readFileSync(certPath, "utf8");
  // Ready once the TLS port answers; a crash at start (bad config, busy port) fails at once.
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null)
      throw new Error(
        `nginx exited ${proc.exitCode}: ${await new Response(proc.stderr).text()} ${readFileSync(join(dir, "error.log"), "utf8")}`,
      );
    try {
      await fetch(`https://127.0.0.1:${options.port}/`, { tls: { ca: cert } });
      break;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`nginx did not answer: ${String(err)}`);
      await Bun.sleep(25);
    }
  }
  return {
    cert,
    stop: async () => {
      proc.kill();
      await proc.exited;
    },
  };
}
