/**
 * The daemon serves the built web client: the page at every client-side route, hashed assets
 * cached for good, the security headers on all of it, and nothing outside the web folder,
 * however the path is spelled.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { embeddedAssets } from "../../src/daemon/http/web-assets.ts";
import { tempDir } from "../agent/support/agent-process.ts";
import { AuthDaemon } from "./auth/auth-daemon.ts";
import { rawRequest } from "./auth/raw-http.ts";

const root = tempDir("web-root");
const webDir = join(root, "dist");
mkdirSync(join(webDir, "assets"), { recursive: true });
writeFileSync(join(webDir, "index.html"), "<!doctype html><title>Shard</title>");
writeFileSync(join(webDir, "assets", "app-1234.js"), "console.log(1)");
writeFileSync(join(root, "secret.txt"), "TOP-SECRET");

let d: AuthDaemon;
beforeAll(async () => {
  d = await AuthDaemon.start({ webDir });
});
afterAll(async () => {
  await d.stop();
});

const get = (path: string, host = d.host) => rawRequest(d.port, { path, headers: { Host: host } });

describe("the web client", () => {
  test("/ and client-side routes get the page, revalidated, with the security headers", async () => {
    for (const path of ["/", "/agents/a-1", "/index.html"]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.body).toContain("<title>Shard</title>");
      expect(res.header("content-type")).toBe("text/html; charset=utf-8");
      expect(res.header("cache-control")).toBe("no-cache");
      expect(res.header("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.header("content-security-policy")).toContain("script-src 'self'");
      expect(res.header("x-frame-options")).toBe("DENY");
      expect(res.header("x-content-type-options")).toBe("nosniff");
      expect(res.header("referrer-policy")).toBe("no-referrer");
      expect(res.header("access-control-allow-origin")).toBeUndefined();
    }
  });

  test("hashed assets are served with their type and cached immutably; a missing one is a 404", async () => {
    const asset = await get("/assets/app-1234.js");
    expect(asset.status).toBe(200);
    expect(asset.body).toBe("console.log(1)");
    expect(asset.header("content-type")).toBe("text/javascript; charset=utf-8");
    expect(asset.header("cache-control")).toContain("immutable");
    const missing = await get("/assets/nope.js");
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({ code: "NOT_FOUND", message: "no such file: /assets/nope.js" });
  });

  test("no spelling of a path reaches a file outside the web folder", async () => {
    for (const path of [
      "/../secret.txt",
      "/%2e%2e/secret.txt",
      "/assets/..%2f..%2fsecret.txt",
      "/%2e%2e%2fsecret.txt",
      "/assets/%2e%2e/%2e%2e/secret.txt",
      "/..%5csecret.txt",
      "/assets/app-1234.js%00.html",
    ]) {
      const res = await get(path);
      expect(res.body).not.toContain("TOP-SECRET");
      expect(res.status === 404 || res.status === 400).toBe(true);
    }
  });

  test("the page is behind the exact Host check like every other route", async () => {
    const res = await get("/", `127.0.0.1.nip.io:${d.port}`);
    expect(res.status).toBe(421);
    expect(res.body).not.toContain("<title>");
  });
});

describe("a daemon whose web client was never built", () => {
  test("answers the page with 503 and the command that builds it", async () => {
    const unbuilt = await AuthDaemon.start({ webDir: tempDir("no-web") });
    try {
      const res = await rawRequest(unbuilt.port, { path: "/", headers: { Host: unbuilt.host } });
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body).message).toContain("bun run build:web");
    } finally {
      await unbuilt.stop();
    }
  });
});

describe("the copy embedded in a compiled binary", () => {
  const files = [
    new File(["<title>embedded</title>"], "dist/index.html"),
    new File(["js"], "dist/assets/app-1.js"),
    new File(["other"], "elsewhere/notes.txt"),
  ];

  test("is found by its shallowest index.html and served by exact path only", () => {
    const assets = embeddedAssets(files);
    expect(assets?.unavailable()).toBeUndefined();
    expect(assets?.get("/index.html")?.contentType).toBe("text/html; charset=utf-8");
    expect(assets?.get("/assets/app-1.js")?.contentType).toBe("text/javascript; charset=utf-8");
    expect(assets?.get("/../elsewhere/notes.txt")).toBeUndefined();
    expect(assets?.get("/elsewhere/notes.txt")).toBeUndefined();
  });

  test("is absent when nothing embedded has an index.html (a binary built without the page)", () => {
    expect(embeddedAssets([new File(["x"], "dist/assets/app-1.js")])).toBeUndefined();
    expect(embeddedAssets([])).toBeUndefined();
  });
});
