/**
 * The system prompt: base instructions (or `--system-prompt-file`), project context files
 * (`AGENTS.md` / `CLAUDE.md` from `$SHARD_HOME` and from the filesystem root down to cwd),
 * the available skills (`.shard/skills/*\/SKILL.md`, `$SHARD_HOME/skills/`), and the
 * active mode's addition.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseFrontmatter, stringField } from "./modes/frontmatter.ts";

const BASE_PROMPT = `You are Shard, an expert coding agent working in the user's project.
Use the tools to read, search, edit and run code. Prefer small, verifiable steps:
read before you edit, make exact edits, run the tests or the command that proves a change.
Keep answers concise; show file paths. If a tool is denied, do not retry it: adapt or ask.`;

const CONTEXT_FILES = ["AGENTS.md", "CLAUDE.md"];

export interface Skill {
  name: string;
  description: string;
  path: string;
}

export interface SystemPromptInput {
  cwd: string;
  home: string;
  basePrompt?: string;
  modeAddition: string;
  toolNames: string[];
}

/** Context files from the outermost ancestor to cwd, so the nearest file reads last. */
export function findContextFiles(cwd: string, home: string): string[] {
  const found: string[] = [];
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of [home, ...dirs]) {
    const file = CONTEXT_FILES.map((f) => join(dir, f)).find((p) => existsSync(p));
    if (file && !found.includes(file)) found.push(file);
  }
  return found;
}

export function findSkills(cwd: string, home: string): Skill[] {
  const skills = new Map<string, Skill>();
  for (const root of [join(home, "skills"), join(cwd, ".shard", "skills")]) {
    let entries: string[];
    try {
      entries = readdirSync(root);
    } catch {
      continue;
    }
    for (const entry of entries.sort()) {
      const path = join(root, entry, "SKILL.md");
      if (!existsSync(path)) continue;
      const { fields, body } = parseFrontmatter(readFileSync(path, "utf8"));
      const name = stringField(fields, "name") ?? entry;
      const description =
        stringField(fields, "description") ?? body.split("\n").find((l) => l.trim() !== "") ?? "";
      // Project skills override global ones of the same name.
      skills.set(name, { name, description: description.trim(), path });
    }
  }
  return [...skills.values()];
}

export function buildSystemPrompt(input: SystemPromptInput): string {
  const parts = [input.basePrompt?.trim() || BASE_PROMPT];
  parts.push(
    `Environment:\n- Working directory: ${input.cwd}\n- Platform: ${process.platform}\n- Date: ${new Date().toISOString().slice(0, 10)}\n- Tools: ${input.toolNames.join(", ")}`,
  );
  for (const file of findContextFiles(input.cwd, input.home)) {
    const text = readFileSync(file, "utf8").trim();
    if (text) parts.push(`# Project instructions from ${file}\n\n${text}`);
  }
  const skills = findSkills(input.cwd, input.home);
  if (skills.length > 0) {
    parts.push(
      `# Skills\nThese skills are available. When a task matches one, read its SKILL.md with the read tool first.\n${skills
        .map((s) => `- ${s.name}: ${s.description} (${s.path})`)
        .join("\n")}`,
    );
  }
  if (input.modeAddition.trim()) parts.push(`# Mode\n${input.modeAddition.trim()}`);
  return parts.join("\n\n");
}
