/**
 * Reading a file whose content decides what runs without asking (the grants file): trusted only
 * when it is a regular file in a directory nobody else can write, owned by this user, with no
 * access for group or others, and small. Never blocks (a FIFO), never follows a symlink (to
 * `/dev/zero`), never reads more than the cap. docs/permissions.md describes the rules.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  type Stats,
  statSync,
} from "node:fs";
import { dirname } from "node:path";
import { errorCode } from "../support/error-code.ts";

export type OwnerOnlyRead =
  | { kind: "ok"; text: string }
  | { kind: "missing" }
  /** `reason` says what is wrong, `fix` what the user can do about it. */
  | { kind: "refused"; reason: string; fix: string };

export function readOwnerOnlyFile(path: string, maxBytes: number): OwnerOnlyRead {
  const dir = dirname(path);
  let dirStats: Stats;
  try {
    dirStats = statSync(dir);
  } catch (err) {
    return isMissing(err)
      ? { kind: "missing" }
      : refused(`its directory cannot be read (${codeOf(err)})`, dir);
  }
  const dirProblem = untrustedDirectory(dirStats);
  if (dirProblem)
    return { kind: "refused", reason: `its directory ${dir} ${dirProblem.reason}`, fix: dirProblem.fix(dir) };

  let before: Stats;
  try {
    before = lstatSync(path);
  } catch (err) {
    return isMissing(err) ? { kind: "missing" } : refused(`it cannot be read (${codeOf(err)})`, path);
  }
  const problem = untrustedFile(before, maxBytes);
  if (problem) return { kind: "refused", reason: problem.reason, fix: problem.fix(path) };

  let fd: number;
  try {
    // O_NONBLOCK: a FIFO swapped in after the lstat must not block the agent in open().
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    if (isMissing(err)) return { kind: "missing" };
    return refused(`it cannot be opened safely (${codeOf(err)})`, path);
  }
  try {
    const opened = fstatSync(fd);
    if (opened.dev !== before.dev || opened.ino !== before.ino) {
      return refused("it was replaced while it was being opened", path);
    }
    const openedProblem = untrustedFile(opened, maxBytes);
    if (openedProblem) return { kind: "refused", reason: openedProblem.reason, fix: openedProblem.fix(path) };
    return readBounded(fd, maxBytes, path);
  } finally {
    closeSync(fd);
  }
}

/** Windows reports every file as 0666; its ACLs are not mode bits, so only POSIX modes are judged. */
const POSIX_MODES = process.platform !== "win32";

interface Problem {
  reason: string;
  fix: (path: string) => string;
}

const removeIt = (path: string) => `Remove ${quote(path)} if you did not create it.`;

function untrustedFile(stats: Stats, maxBytes: number): Problem | undefined {
  if (!stats.isFile()) return { reason: `it is ${describeType(stats)}, not a regular file`, fix: removeIt };
  const owner = foreignOwner(stats);
  if (owner) return { reason: owner, fix: removeIt };
  if (POSIX_MODES && (stats.mode & 0o077) !== 0) {
    return {
      reason: `group or others can access it: mode ${octal(stats.mode)}`,
      fix: (path) => `Run \`chmod 600 ${quote(path)}\` or remove the file.`,
    };
  }
  if (stats.size > maxBytes) {
    return {
      reason: `it is larger than ${formatBytes(maxBytes)}: ${stats.size} bytes`,
      fix: (path) => `Remove rules from ${quote(path)} or remove the file.`,
    };
  }
  return undefined;
}

function untrustedDirectory(stats: Stats): Problem | undefined {
  if (!stats.isDirectory()) return { reason: "is not a directory", fix: removeIt };
  const owner = foreignOwner(stats);
  if (owner) return { reason: owner, fix: removeIt };
  if (POSIX_MODES && (stats.mode & 0o022) !== 0) {
    return {
      reason: `is writable by group or others: mode ${octal(stats.mode)}`,
      fix: (dir) => `Run \`chmod 700 ${quote(dir)}\`.`,
    };
  }
  return undefined;
}

function foreignOwner(stats: Stats): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined || stats.uid === uid) return undefined;
  return `it is owned by another user (uid ${stats.uid}, you are uid ${uid})`;
}

/** Reads at most `maxBytes + 1` bytes, so a file that grew after the fstat is still caught. */
function readBounded(fd: number, maxBytes: number, path: string): OwnerOnlyRead {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length <= maxBytes) {
    const chunk = Buffer.alloc(Math.min(65536, maxBytes + 1 - length));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    length += n;
  }
  if (length > maxBytes) return refused(`it is larger than ${formatBytes(maxBytes)}`, path);
  return { kind: "ok", text: Buffer.concat(chunks, length).toString("utf8") };
}

function refused(reason: string, path: string): OwnerOnlyRead {
  return { kind: "refused", reason, fix: removeIt(path) };
}

function describeType(stats: Stats): string {
  if (stats.isSymbolicLink()) return "a symbolic link";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isDirectory()) return "a directory";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "a special file";
}

function isMissing(err: unknown): boolean {
  const code = errorCode(err);
  return code === "ENOENT" || code === "ENOTDIR";
}

/** The error's code for a message (`ENOENT`), or "error". */
function codeOf(err: unknown): string {
  return errorCode(err) ?? "error";
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, "0")}`;
const quote = (path: string) => `'${path.replaceAll("'", "'\\''")}'`;
const formatBytes = (bytes: number) => (bytes % 1048576 === 0 ? `${bytes / 1048576} MiB` : `${bytes} bytes`);
