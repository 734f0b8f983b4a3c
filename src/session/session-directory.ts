/** Finds session files under `$SHARD_HOME/sessions`, including forks nested under `forks/`. */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { FORKS_DIR, SESSION_FILE, sessionFilePath, sessionsRoot } from "./paths.ts";

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}

function collect(dir: string, out: string[]): void {
  const file = join(dir, SESSION_FILE);
  if (existsSync(file)) out.push(file);
  const forks = join(dir, FORKS_DIR);
  for (const name of subdirs(forks)) collect(join(forks, name), out);
}

/** Every session.jsonl: top-level sessions and their (possibly nested) forks. */
export function allSessionFiles(home: string): string[] {
  const root = sessionsRoot(home);
  const out: string[] = [];
  for (const name of subdirs(root)) collect(join(root, name), out);
  return out;
}

/** The file of session `id` (a top-level session or a fork), or null. `id` must be validated first. */
export function findSessionFile(home: string, id: string): string | null {
  const direct = sessionFilePath(home, id);
  if (existsSync(direct)) return direct;
  const suffix = join(FORKS_DIR, id, SESSION_FILE);
  return allSessionFiles(home).find((file) => file.endsWith(`/${suffix}`)) ?? null;
}
