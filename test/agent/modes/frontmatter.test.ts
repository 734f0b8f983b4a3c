/** Mode and skill frontmatter is YAML (Bun.YAML): block lists, quoting and booleans work; broken YAML is reported. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  booleanField,
  listField,
  parseFrontmatter,
  stringField,
} from "../../../src/agent/modes/frontmatter.ts";
import { loadModeCatalog, type ModeLoadWarning } from "../../../src/agent/modes/mode-controller.ts";
import { tempDir } from "../support/agent-process.ts";

describe("parseFrontmatter", () => {
  test("reads YAML block lists, quoted strings with colons and booleans", () => {
    const { fields, body, error } = parseFrontmatter(
      '---\nname: review\ndescription: "Review: read only"\ntools:\n  - read\n  - grep\nread_only: true\n---\n# Body\ntext\n',
    );
    expect(error).toBeUndefined();
    expect(stringField(fields, "name")).toBe("review");
    expect(stringField(fields, "description")).toBe("Review: read only");
    expect(listField(fields, "tools")).toEqual(["read", "grep"]);
    expect(booleanField(fields, "read_only")).toBe(true);
    expect(body).toBe("# Body\ntext");
  });

  test("keeps the comma form and flow lists", () => {
    expect(listField(parseFrontmatter("---\ntools: read, grep\n---\n").fields, "tools")).toEqual([
      "read",
      "grep",
    ]);
    expect(listField(parseFrontmatter("---\ntools: [ls, find]\n---\n").fields, "tools")).toEqual([
      "ls",
      "find",
    ]);
  });

  test("no fence means no fields; broken YAML is an error, not a guess", () => {
    expect(parseFrontmatter("just text")).toEqual({ fields: {}, body: "just text" });
    const broken = parseFrontmatter("---\nname: [unclosed\n---\nbody");
    expect(broken.error).toContain("not valid YAML");
    expect(broken.fields).toEqual({});
    expect(parseFrontmatter("---\n- a\n- b\n---\n").error).toContain("mapping");
  });
});

describe("loadModeCatalog", () => {
  test("a mode whose frontmatter is broken is skipped with a warning naming the file", () => {
    const dir = join(tempDir("modes"), "modes");
    mkdirSync(dir);
    writeFileSync(join(dir, "good.md"), "---\ntools:\n  - read\n---\nBe careful.\n");
    writeFileSync(join(dir, "bad.md"), "---\nname: [oops\n---\nx\n");
    const warnings: ModeLoadWarning[] = [];
    const modes = loadModeCatalog([dir], (w) => warnings.push(w));
    const good = modes.find((m) => m.name === "good");
    expect(good?.allowedTools).toEqual(["read"]);
    expect(good?.promptAddition).toBe("Be careful.");
    expect(modes.some((m) => m.name === "bad" || m.name === "[oops")).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.file).toBe(join(dir, "bad.md"));
  });
});
