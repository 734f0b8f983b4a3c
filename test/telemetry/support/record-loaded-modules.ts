/**
 * Preloaded into a `shard` process a test starts (BUN_OPTIONS=--preload): as the process exits,
 * writes every module it loaded (Bun's require.cache holds ES modules too) to
 * $SHARD_TEST_LOADED_MODULES, so a test can tell what was — and was not — imported.
 */
import { writeFileSync } from "node:fs";

const out = process.env.SHARD_TEST_LOADED_MODULES;
if (out)
  process.on("exit", () => {
    writeFileSync(out, JSON.stringify(Object.keys(require.cache)));
  });
