/**
 * `shard placement list | install <name>` (docs/placements.md): the placements of
 * `$SHARD_HOME/placements.json`, and copying this binary to an ssh placement.
 */
import { basename } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { installBinary } from "../placements/install-binary.ts";
import { LOCAL_PLACEMENT } from "../placements/placement-config.ts";
import { loadPlacements, placementsPath } from "../placements/placements-file.ts";
import { shardHome } from "../support/shard-home.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import { parseFlags, reportUsageError, UsageError } from "./flags.ts";

export const PLACEMENT_HELP = `Usage: shard placement list
       shard placement install <name> [--binary PATH]
       shard placement git

Placements are where the daemon may run agents besides this machine: ssh hosts, containers,
or any command that runs \`shard agent\` on stdio ($SHARD_HOME/placements.json,
docs/placements.md).

  list                 the placements and any problem with their entries
  install <name>       copy this shard binary to an ssh placement (its "shard" path, default
                       ~/.shard/bin/shard) and print the version it reports
  --binary PATH        the binary to copy (default: this one; required when run under bun)
  git                  not for people: the daemon runs it through a placement, one JSON
                       request on stdin, to run git there (workspaces, the Changes view)
`;

const OPTIONS = { binary: { type: "string" }, help: { type: "boolean", short: "h" } } as const;

export async function placementCommand(argv: string[]): Promise<number> {
  let action: string | undefined;
  let name: string | undefined;
  let binary: string | undefined;
  try {
    const { values, positionals } = parseFlags(argv, OPTIONS, true);
    if (values.help) {
      process.stdout.write(PLACEMENT_HELP);
      return 0;
    }
    [action, name] = positionals;
    binary = values.binary;
    if (action === "list" && positionals.length === 1) return list();
    if (action === "git" && positionals.length === 1) return gitHere();
    if (action !== "install" || name === undefined || positionals.length !== 2)
      throw new UsageError("use: shard placement list, or shard placement install <name>");
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return reportUsageError("placement", err.message);
  }
  return install(name, binary);
}

/** `shard placement git` (src/placements/git-request.ts): one request, one answer. */
async function gitHere(): Promise<number> {
  const { answerGitRequest } = await import("../placements/answer-git-request.ts");
  const { GitRequestSchema } = await import("../placements/git-request.ts");
  const { Value } = await import("@sinclair/typebox/value");
  const text = await Bun.stdin.text();
  let request: unknown;
  try {
    request = text.length <= 1024 * 1024 ? JSON.parse(text) : undefined;
  } catch {
    request = undefined;
  }
  if (!Value.Check(GitRequestSchema, request)) {
    process.stderr.write("shard placement git: the request on stdin is not a git request\n");
    return 2;
  }
  process.stdout.write(`${JSON.stringify(await answerGitRequest(request))}\n`);
  return 0;
}

function list(): number {
  const home = shardHome(process.env);
  const file = loadPlacements(home);
  process.stdout.write(`${LOCAL_PLACEMENT}\tthis machine\n`);
  for (const [name, placement] of file.placements) process.stdout.write(`${name}\t${placement.kind}\n`);
  for (const problem of file.problems.values())
    process.stderr.write(`shard placement: ${terminalLine(problem)}\n`);
  return file.problems.size > 0 ? 1 : 0;
}

async function install(name: string, binaryFlag: string | undefined): Promise<number> {
  const home = shardHome(process.env);
  const file = loadPlacements(home);
  const placement = file.placements.get(name);
  if (!placement) {
    const why = file.problems.get(name) ?? `no placement "${name}" in ${placementsPath(home)}`;
    process.stderr.write(`shard placement: ${terminalLine(why)}\n`);
    return 1;
  }
  if (placement.kind !== "ssh") {
    process.stderr.write(
      `shard placement: "${name}" is a ${placement.kind} placement; install copies over ssh only (put the binary in the image or pod: docs/placements.md)\n`,
    );
    return 1;
  }
  const underBun = /^bun(-debug|-profile)?$/.test(basename(process.execPath));
  const binary = binaryFlag ?? (underBun ? undefined : process.execPath);
  if (binary === undefined)
    return reportUsageError("placement", "run it from the compiled shard binary, or pass --binary PATH");
  const installed = await installBinary(placement, binary);
  if (!installed.ok) {
    process.stderr.write(
      `shard placement: install on "${name}" failed: ${terminalLine(installed.message)}\n`,
    );
    return 1;
  }
  process.stdout.write(
    `installed ${installed.path} on "${name}": shard ${terminalLine(installed.version)}\n`,
  );
  if (installed.version !== pkg.version) {
    process.stderr.write(
      `shard placement: it reports ${terminalLine(installed.version)}, this daemon is ${pkg.version}\n`,
    );
    return 1;
  }
  return 0;
}
