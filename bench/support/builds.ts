/** The builds an A/B benchmark compares, from its arguments: `--binary PATH`… and `--sources`. */
import { resolve } from "node:path";

export interface Build {
  name: string;
  /** What runs `shard`: `[binary]` or `[bun, src/cli/main.ts]`. */
  command: string[];
}

const MAIN = resolve(import.meta.dir, "../../src/cli/main.ts");

/** In the order given; the sources when none is named. */
export function buildsFromArgs(argv: string[]): Build[] {
  const sources = { name: "sources", command: [process.execPath, MAIN] };
  const builds: Build[] = [];
  argv.forEach((arg, i) => {
    const path = argv[i + 1];
    if (arg === "--binary" && path) builds.push({ name: path, command: [resolve(path)] });
    if (arg === "--sources") builds.push(sources);
  });
  return builds.length > 0 ? builds : [sources];
}
