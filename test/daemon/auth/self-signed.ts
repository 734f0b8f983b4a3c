/**
 * A self-signed certificate made for one test (openssl), for a TLS proxy in front of the daemon.
 * `spki` is the base64 SHA-256 of its public key, the form Chromium's
 * `--ignore-certificate-errors-spki-list` trusts (this certificate only, not every error).
 */
import { createHash, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface SelfSigned {
  certPath: string;
  keyPath: string;
  /** PEM, for clients that take a CA (Bun's fetch and WebSocket `tls.ca`). */
  cert: string;
  spki: string;
}

export function selfSignedCert(dir: string, names: { dns?: string[]; ip?: string[] }): SelfSigned {
  const certPath = join(dir, "cert.pem");
  const keyPath = join(dir, "key.pem");
  const san = [...(names.dns ?? []).map((n) => `DNS:${n}`), ...(names.ip ?? []).map((n) => `IP:${n}`)];
  const made = Bun.spawnSync(
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
      `/CN=${names.dns?.[0] ?? names.ip?.[0] ?? "localhost"}`,
      "-addext",
      `subjectAltName=${san.join(",")}`,
      "-keyout",
      keyPath,
      "-out",
      certPath,
    ],
    { stderr: "pipe", stdout: "ignore" },
  );
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
  const cert = readFileSync(certPath, "utf8");
  const der = new X509Certificate(cert).publicKey.export({ type: "spki", format: "der" });
  return { certPath, keyPath, cert, spki: createHash("sha256").update(der).digest("base64") };
}
