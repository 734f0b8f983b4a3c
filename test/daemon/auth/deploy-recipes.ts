/**
 * The recipes of docs/WEB-DEPLOYMENT.md, read from the doc itself, so the proxy tests run what a
 * reader copies. A test changes only the values a reader changes too (ports, certificate paths,
 * the host name), each by an exact string that must be in the block: a recipe that drifts from
 * what the test expects fails the test instead of silently testing something else.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const DEPLOYMENT_DOC = join(import.meta.dir, "..", "..", "..", "docs", "WEB-DEPLOYMENT.md");

/** The fenced blocks of language `lang` in the section whose `## ` heading starts with `heading`. */
export function recipeBlocks(heading: string, lang: string): string[] {
  const doc = readFileSync(DEPLOYMENT_DOC, "utf8");
  const sections = doc.split(/^## /m).slice(1);
  const section = sections.find((s) => s.startsWith(heading));
  if (section === undefined) throw new Error(`docs/WEB-DEPLOYMENT.md has no section "## ${heading}"`);
  const blocks = [...section.matchAll(/^```([a-z]*)\n([\s\S]*?)^```$/gm)]
    .filter((m) => m[1] === lang)
    .map((m) => m[2] ?? "");
  if (blocks.length === 0) throw new Error(`"## ${heading}" has no \`\`\`${lang} block`);
  return blocks;
}

/** `text` with each `[from, to]` replaced everywhere; every `from` must occur. */
export function substitute(text: string, replacements: [string, string][]): string {
  let out = text;
  for (const [from, to] of replacements) {
    if (!out.includes(from)) throw new Error(`the recipe no longer contains ${JSON.stringify(from)}`);
    out = out.split(from).join(to);
  }
  return out;
}

/**
 * The arguments of the recipe's `shard daemon …` command (line continuations joined, comments
 * dropped), after `shard daemon`.
 */
export function daemonArgs(shellBlock: string): string[] {
  const command = shellBlock
    .split("\n")
    .filter((l) => !l.trim().startsWith("#"))
    .join("\n")
    .replace(/\\\n/g, " ")
    .split("\n")
    .find((l) => l.trim().startsWith("shard daemon"));
  if (command === undefined) throw new Error(`no \`shard daemon\` command in:\n${shellBlock}`);
  const words = command.trim().split(/\s+/);
  return words.slice(2);
}
