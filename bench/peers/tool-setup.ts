/** The tools of a run: Shard's builds and the installed peers, each as a ToolDriver. */
import { join, resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { benchHome, benchTempDir } from "../support/bench-home.ts";
import { ensurePeer, opencodeConfigHome, opencodePrimed, PEERS } from "./install.ts";
import { opencodeTool } from "./opencode-tool.ts";
import type { BenchOptions, ToolId } from "./options.ts";
import { piTool } from "./pi-tool.ts";
import { buildShardBinary } from "./shard-binary.ts";
import { shardAgent, shardDaemon, shardSdk } from "./shard-tools.ts";
import type { ToolDriver } from "./tool.ts";

const REPO = resolve(import.meta.dir, "..", "..");

export interface RunContext {
  opts: BenchOptions;
  llmUrl: string;
  /** The tools' working folder. */
  cwd: string;
  /** Registers a temporary folder to remove at the end of the run; returns it. */
  temp: (dir: string) => string;
  log: (line: string) => void;
}

/** A tool that could not even be set up (install failed): every measure crashed with that error. */
function unavailable(id: string, label: string, command: string, error: Error): ToolDriver {
  return {
    id,
    label,
    version: "?",
    command,
    readCall: () => ({ name: "read", args: {} }),
    start: () => Promise.reject(error),
  };
}

/** Builds and installs what the run needs; a tool that cannot be set up is kept, as crashed. */
export async function drivers(ctx: RunContext): Promise<ToolDriver[]> {
  const { opts, cwd, temp, log } = ctx;
  const want = (id: ToolId) => opts.only.has(id);
  const out: ToolDriver[] = [];
  const version = `${pkg.version}`;
  if (want("shard-bin") || want("shard-daemon") || want("shard-sdk")) {
    let binary = opts.binary ? resolve(opts.binary) : undefined;
    let buildError: Error | undefined;
    if (!binary) {
      log("building the compiled shard binary (build:binary) …");
      binary = await buildShardBinary()
        .then((built) => {
          for (const dir of built.dirs) temp(dir);
          return built.binary;
        })
        .catch((err: Error) => {
          buildError = err;
          return undefined;
        });
    }
    const display = opts.binary ? opts.binary : "shard (built by build:binary into a temp dir)";
    const setup = {
      command: binary ? [binary] : [],
      display,
      home: temp(benchHome(ctx.llmUrl)),
      cwd,
      version,
    };
    const make = (id: ToolId, label: string, f: typeof shardAgent) =>
      buildError ? unavailable(id, label, "shard (compiled)", buildError) : f(id, label, setup);
    if (want("shard-bin")) out.push(make("shard-bin", "Shard compiled", shardAgent));
    if (want("shard-daemon")) out.push(make("shard-daemon", "Shard compiled, via daemon", shardDaemon));
    if (want("shard-sdk")) out.push(make("shard-sdk", "Shard compiled, via SDK", shardSdk));
  }
  if (want("shard-src"))
    out.push(
      shardAgent("shard-src", "Shard sources", {
        command: [process.execPath, join(REPO, "src", "cli", "main.ts")],
        display: "bun src/cli/main.ts",
        home: temp(benchHome(ctx.llmUrl)),
        cwd,
        version,
      }),
    );
  if (want("pi")) {
    const { pkg: name, version: v } = PEERS.pi;
    try {
      const bin = await ensurePeer("pi", log);
      out.push(piTool({ bin, version: v, home: temp(benchTempDir("pi-home")), cwd, llmUrl: ctx.llmUrl }));
    } catch (err) {
      out.push(unavailable("pi", `pi ${v}`, `${name}@${v}`, err as Error));
    }
  }
  if (want("opencode")) {
    const { pkg: name, version: v } = PEERS.opencode;
    try {
      const bin = await ensurePeer("opencode", log);
      const tool = opencodeTool({
        bin,
        version: v,
        configHome: opencodeConfigHome(),
        home: temp(benchTempDir("opencode-home")),
        cwd,
        llmUrl: ctx.llmUrl,
      });
      if (!opencodePrimed()) await primeOpencode(tool, log);
      out.push(tool);
    } catch (err) {
      out.push(unavailable("opencode", `opencode ${v}`, `${name}@${v}`, err as Error));
    }
  }
  // The order of the table: Shard first, then the peers.
  return out;
}

/** opencode's first run installs its own packages (from npm): once, untimed, before the runs. */
async function primeOpencode(tool: ToolDriver, log: (line: string) => void): Promise<void> {
  log("first opencode run: letting it install its own packages into the cache …");
  const running = await tool.start(120_000);
  try {
    await running.turn("prime", 120_000);
    const deadline = Date.now() + 180_000;
    while (!opencodePrimed()) {
      if (Date.now() > deadline) throw new Error("opencode did not install its packages within 180 s");
      await Bun.sleep(500);
    }
  } finally {
    await running.close();
  }
}
