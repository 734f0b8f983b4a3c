// Builds the control room into web/dist, which the daemon serves (src/daemon/http/static-web.ts).
import { defineConfig } from "vite";
import solid from "vite-plugin-solid";

export default defineConfig({
  root: import.meta.dirname,
  plugins: [solid()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // CSP is script-src 'self': no inline module-preload polyfill.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
