/**
 * Preloaded by bunfig.toml: the per-test timeout for the whole suite. Bun 1.4.5 ignores
 * `[test] timeout` in bunfig.toml (every test got the 5 s default), which is too short for an
 * integration test on a loaded 2-core machine.
 */
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(30_000);
