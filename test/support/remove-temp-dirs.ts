/** Preloaded (bunfig.toml): after the last test file, the run's temporary folders go. */
import { afterAll } from "bun:test";
import { removeTempDirs } from "./temp-dirs.ts";

afterAll(removeTempDirs);
