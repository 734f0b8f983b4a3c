/**
 * `shard placement install <name>`: copies a `shard` binary to an ssh placement through the
 * system ssh (its stdin carries the bytes; nothing but ssh and a POSIX shell is needed there),
 * written to a temporary name and renamed, so a runtime starting meanwhile never runs half a
 * file. The installed binary's `--version` is the answer.
 */
import { openSync } from "node:fs";
import { posix } from "node:path";
import { describeError } from "../support/describe-error.ts";
import { DEFAULT_REMOTE_SHARD, sshArgv } from "./placement-argv.ts";
import type { SshPlacement } from "./placement-config.ts";
import { shellWord } from "./shell-word.ts";

/** How long one install may take (a large binary on a slow link), then ssh is killed. */
const INSTALL_TIMEOUT_MS = 10 * 60_000;

export type InstallResult = { ok: true; path: string; version: string } | { ok: false; message: string };

export async function installBinary(placement: SshPlacement, binary: string): Promise<InstallResult> {
  const target = placement.shard ?? DEFAULT_REMOTE_SHARD;
  const tmp = `${target}.installing`;
  const remote = [
    `mkdir -p ${shellWord(posix.dirname(target))}`,
    `cat > ${shellWord(tmp)}`,
    `chmod 755 ${shellWord(tmp)}`,
    `mv -f ${shellWord(tmp)} ${shellWord(target)}`,
    `exec ${shellWord(target)} --version`,
  ].join(" && ");
  let stdin: number;
  try {
    stdin = openSync(binary, "r");
  } catch (err) {
    return { ok: false, message: `cannot read ${binary}: ${describeError(err)}` };
  }
  const proc = Bun.spawn(sshArgv(placement, remote), { stdin, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), INSTALL_TIMEOUT_MS);
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  clearTimeout(timer);
  if (code !== 0) {
    const said = err.trim().split("\n").at(-1) ?? "";
    return { ok: false, message: `ssh exited with code ${code}${said === "" ? "" : `: ${said}`}` };
  }
  return { ok: true, path: target, version: out.trim() };
}
