/**
 * ModeController (docs/architecture.md §6.5): the authority on the active mode and the catalog.
 * Built-in `build` and `plan`, then extension modes from markdown files in the project's
 * `.shard/modes/` and `$SHARD_HOME/modes/` (project wins on a name clash).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ModePolicy } from "../../contracts/permission-gate.ts";
import { booleanField, listField, parseFrontmatter, stringField } from "./frontmatter.ts";

export interface ModeDefinition {
  name: string;
  description: string;
  /** Only these tools may run; undefined = all. */
  allowedTools?: string[];
  denyMutating: boolean;
  promptAddition: string;
  source: "builtin" | string;
}

const BUILTIN_MODES: ModeDefinition[] = [
  {
    name: "build",
    description: "Default mode: read, edit and run commands (mutating tools ask for permission).",
    denyMutating: false,
    promptAddition: "",
    source: "builtin",
  },
  {
    name: "plan",
    description: "Read-only planning: explore and propose changes; mutating tools are denied.",
    denyMutating: true,
    promptAddition:
      "You are in plan mode. You can read and search but you cannot edit files or run commands. " +
      "Investigate, then present a concrete step-by-step plan. The user switches to build mode to carry it out.",
    source: "builtin",
  },
];

export interface ModeLoadWarning {
  file: string;
  reason: string;
}

export function loadModeCatalog(dirs: string[], warn: (w: ModeLoadWarning) => void): ModeDefinition[] {
  const modes = new Map(BUILTIN_MODES.map((m) => [m.name, m]));
  // Later dirs lose: iterate in reverse so the first dir (the project) wins.
  for (const dir of [...dirs].reverse()) {
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith(".md"));
    } catch {
      continue; // no modes folder is normal
    }
    for (const file of files.sort()) {
      const path = join(dir, file);
      const { fields, body, error } = parseFrontmatter(readFileSync(path, "utf8"));
      if (error) {
        warn({ file: path, reason: error });
        continue;
      }
      const name = stringField(fields, "name") ?? file.replace(/\.md$/, "");
      if (!/^[a-z0-9][a-z0-9_-]*$/i.test(name)) {
        warn({ file: path, reason: `mode name "${name}" must be letters, digits, "-" or "_"` });
        continue;
      }
      if (name === "build" || name === "plan") {
        warn({ file: path, reason: `"${name}" is a built-in mode and cannot be redefined` });
        continue;
      }
      modes.set(name, {
        name,
        description: stringField(fields, "description") ?? `Mode from ${file}`,
        allowedTools: listField(fields, "tools") ?? listField(fields, "allowed_tools"),
        denyMutating: booleanField(fields, "read_only"),
        promptAddition: body,
        source: path,
      });
    }
  }
  return [...modes.values()];
}

export class ModeController {
  private active: ModeDefinition;

  constructor(
    private readonly catalog: ModeDefinition[],
    initial = "build",
  ) {
    // An unknown name falls back to the first mode (the caller refuses it); the catalog
    // from loadModeCatalog always holds the built-in modes, so none means a programming error.
    const active = catalog.find((m) => m.name === initial) ?? catalog[0];
    if (active === undefined) throw new Error("internal error: the mode catalog is empty");
    this.active = active;
  }

  get current(): ModeDefinition {
    return this.active;
  }

  list(): { name: string; description: string }[] {
    return this.catalog.map(({ name, description }) => ({ name, description }));
  }

  find(name: string): ModeDefinition | undefined {
    return this.catalog.find((m) => m.name === name);
  }

  /** Returns the previous mode name, or undefined when `name` is unknown. */
  set(name: string): { previous: string; changed: boolean } | undefined {
    const next = this.find(name);
    if (!next) return undefined;
    const previous = this.active.name;
    this.active = next;
    return { previous, changed: previous !== next.name };
  }

  policy(): ModePolicy {
    const m = this.active;
    return m.allowedTools
      ? { name: m.name, denyMutating: m.denyMutating, allowedTools: m.allowedTools }
      : { name: m.name, denyMutating: m.denyMutating };
  }
}
