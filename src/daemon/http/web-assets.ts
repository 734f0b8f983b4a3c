/**
 * Where the built web client comes from. Today a directory (`web/dist`, or `SHARD_WEB_DIR`);
 * the compiled binary supplies an embedded map through the same interface.
 */
import { existsSync, statSync } from "node:fs";
import { join, normalize, sep } from "node:path";

export interface WebAsset {
  body: Blob;
  contentType: string;
}

export interface WebAssets {
  /** The file at a URL path (`/assets/app.js`), or undefined when there is none. */
  get(urlPath: string): WebAsset | undefined;
  /** Why nothing can be served (the client was never built), or undefined when it can. */
  unavailable(): string | undefined;
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json",
};

export function contentTypeOf(path: string): string {
  const dot = path.lastIndexOf(".");
  return (dot >= 0 && CONTENT_TYPES[path.slice(dot).toLowerCase()]) || "application/octet-stream";
}

/** The default location: `web/dist` beside the source tree. */
export function defaultWebDir(): string {
  return process.env.SHARD_WEB_DIR ?? join(import.meta.dir, "..", "..", "..", "web", "dist");
}

/**
 * What the daemon serves: `SHARD_WEB_DIR` if set, else the copy embedded in a compiled binary
 * (`bun build --compile --asset web/dist`), else `web/dist` of the checkout.
 */
export function defaultWebAssets(): WebAssets {
  if (process.env.SHARD_WEB_DIR === undefined) {
    const embedded = embeddedAssets(Bun.embeddedFiles);
    if (embedded !== undefined) return embedded;
  }
  return directoryAssets(defaultWebDir());
}

/**
 * Embedded files are named by their path under the asset folder's parent (`dist/index.html`):
 * the folder holding the shallowest index.html is the web root.
 */
export function embeddedAssets(files: ReadonlyArray<Blob>): WebAssets | undefined {
  const named = files.map((file) => ({
    file,
    name: "name" in file && typeof file.name === "string" ? file.name : "",
  }));
  const pages = named.filter((f) => f.name === "index.html" || f.name.endsWith("/index.html"));
  const page = pages.sort((a, b) => a.name.length - b.name.length)[0];
  if (page === undefined) return undefined;
  const prefix = page.name.slice(0, page.name.length - "index.html".length);
  const byPath = new Map<string, Blob>();
  for (const { file, name } of named) {
    if (name.startsWith(prefix)) byPath.set(`/${name.slice(prefix.length)}`, file);
  }
  return {
    // An exact lookup in a fixed map: no path from a request can name anything else.
    get: (urlPath) => {
      const body = byPath.get(urlPath);
      return body === undefined ? undefined : { body, contentType: contentTypeOf(urlPath) };
    },
    unavailable: () => undefined,
  };
}

export function directoryAssets(dir: string): WebAssets {
  const root = normalize(dir);
  let built = false;
  return {
    get(urlPath) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(urlPath);
      } catch {
        return undefined;
      }
      // Only plain relative names: no NUL, no backslash, no dot segments (never outside root).
      if (decoded.includes("\0") || decoded.includes("\\")) return undefined;
      const segments = decoded.split("/").filter((s) => s !== "");
      if (segments.some((s) => s === "." || s === "..")) return undefined;
      const file = join(root, ...segments);
      if (file !== root && !file.startsWith(root + sep)) return undefined;
      try {
        if (!statSync(file).isFile()) return undefined;
      } catch {
        return undefined;
      }
      return { body: Bun.file(file), contentType: contentTypeOf(file) };
    },
    // Asked on every GET: once the page exists it is remembered; until then each request looks
    // again, so a build made while the daemon runs is served without a restart.
    unavailable() {
      built ||= existsSync(join(root, "index.html"));
      return built
        ? undefined
        : `the web client is not built (no ${join(root, "index.html")}): run \`bun run build:web\` in the Shard checkout`;
    },
  };
}
