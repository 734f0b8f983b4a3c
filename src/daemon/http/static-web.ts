/**
 * Serves the web client (GET/HEAD only). Hashed files under /assets/ are cached for good; the
 * page itself is revalidated each time. A path with no file extension is a client-side route
 * and gets the page (SPA fallback); a missing asset is a plain 404.
 */
import type { Hono } from "hono";
import type { DaemonEnv } from "./daemon-env.ts";
import { httpError } from "./http-error.ts";
import type { WebAssets } from "./web-assets.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";

export function mountStaticWeb(app: Hono<DaemonEnv>, assets: WebAssets): void {
  app.on(["GET", "HEAD"], "*", (c) => {
    const why = assets.unavailable();
    if (why !== undefined) return httpError(c, 503, "NOT_FOUND", why);
    const path = c.req.path;
    const lastSegment = path.slice(path.lastIndexOf("/") + 1);
    const isRoute = path === "/" || !lastSegment.includes(".");
    const asset = isRoute ? assets.get("/index.html") : assets.get(path);
    if (asset === undefined) return httpError(c, 404, "NOT_FOUND", `no such file: ${path}`);
    const headers = {
      "Content-Type": asset.contentType,
      "Cache-Control": path.startsWith("/assets/") && !isRoute ? IMMUTABLE : "no-cache",
    };
    return new Response(c.req.method === "HEAD" ? null : asset.body, { headers });
  });
}
