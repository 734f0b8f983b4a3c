import { describe, expect, test } from "bun:test";
import { analyzeBashCommand } from "../../src/permissions/bash-signature.ts";

function signaturesOf(command: string) {
  const analysis = analyzeBashCommand(command);
  if (!analysis.ok)
    throw new Error(`expected ${JSON.stringify(command)} to be analysable: ${analysis.reason}`);
  return analysis.signatures;
}

describe("commands that cannot be analysed safely get no signature (negative)", () => {
  const unsafe: [string, string][] = [
    ["command substitution", "git status -s $(rm -rf /)"],
    ["command substitution in double quotes", 'git status -s "$(rm -rf /)"'],
    ["backticks", "git status -s `rm -rf /`"],
    ["parameter expansion (could inject flags)", "git status $FLAGS"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${...}, deliberately literal.
    ["braced parameter expansion", "git status ${FLAGS}"],
    ["arithmetic expansion", "echo $((1+1))"],
    ["ANSI-C quoting", "git $'--force'"],
    ["subshell", "(rm -rf /)"],
    ["group braces", "{ rm -rf /; }"],
    ["redirection to a file", "git status > out.txt"],
    ["append redirection", "git status >> out.txt"],
    ["stderr to a file", "git status 2>err.txt"],
    ["input from a file", "git apply < patch.diff"],
    ["here-document", "cat <<EOF\nhi\nEOF"],
    ["here-string", "cat <<< hi"],
    ["process substitution", "diff <(ls) >(ls)"],
    ["eval", "eval git status -s"],
    ["sudo", "sudo git status -s"],
    ["sudo by full path", "/usr/bin/sudo git status -s"],
    ["a shell running a string", "bash -c 'rm -rf /'"],
    ["env wrapper", "env git status"],
    ["xargs", "xargs rm -rf"],
    ["exec", "exec rm -rf /"],
    ["PATH assignment", "PATH=/tmp/evil git status -s"],
    ["LD_PRELOAD assignment", "LD_PRELOAD=/tmp/evil.so git status -s"],
    ["assignment-only command changing PATH", "PATH=/tmp/evil; git status -s"],
    ["export", "export PATH=/tmp/evil; git status -s"],
    ["unbalanced single quote", "git commit -m 'oops"],
    ["unbalanced double quote", 'git commit -m "oops'],
    ["trailing backslash", "git status \\"],
    ["glob that could expand to a flag", "rm *"],
    ["glob behind a dash", "rm -* x"],
    ["brace expansion into flags", "rm {-rf,x}"],
    ["empty command", "   "],
    ["comment only", "# nothing"],
  ];
  for (const [what, command] of unsafe) {
    test(what, () => {
      const analysis = analyzeBashCommand(command);
      expect(analysis.ok).toBe(false);
      if (!analysis.ok) expect(analysis.reason.length).toBeGreaterThan(0);
    });
  }
});

const sig = (executable: string, flags: string[] = [], subcommand: string[] = []) => ({
  executable,
  subcommand,
  flags,
});

describe("analysable commands", () => {
  test("executable, subcommand and sorted flag set; other positional arguments are ignored", () => {
    expect(signaturesOf("git status -s")).toEqual([sig("git", ["-s"], ["status"])]);
    expect(signaturesOf("git log -s src/a.ts")).toEqual([sig("git", ["-s"], ["log"])]);
    expect(signaturesOf("git --no-pager diff --stat x")).toEqual([
      sig("git", ["--no-pager", "--stat"], ["diff"]),
    ]);
    expect(signaturesOf("npm run test -- --watch")).toEqual([sig("npm", ["--", "--watch"], ["run", "test"])]);
    expect(signaturesOf("npm install")).toEqual([sig("npm", [], ["install"])]);
    expect(signaturesOf("ls -l src")).toEqual([sig("ls", ["-l"])]);
  });

  test("combined short flags split, long flags drop their value, duplicates collapse", () => {
    expect(signaturesOf("rm -rf build -r")).toEqual([sig("rm", ["-f", "-r"])]);
    expect(signaturesOf("git log --format=%H --stat")).toEqual([sig("git", ["--format", "--stat"], ["log"])]);
  });

  test("old-style tar options count as flags", () => {
    expect(signaturesOf("tar xzf a.tar.gz")).toEqual([sig("tar", ["-f", "-x", "-z"])]);
  });

  test("a flag is judged after quote removal, since that is what the program receives", () => {
    expect(signaturesOf("git push \"--force\" 'origin'")).toEqual([sig("git", ["--force"], ["push"])]);
  });

  test("lists and pipelines yield one signature per simple command", () => {
    expect(signaturesOf("git status -s && rm -rf x || ls -la | wc -l; echo done & true\npwd")).toEqual([
      sig("git", ["-s"], ["status"]),
      sig("rm", ["-f", "-r"]),
      sig("ls", ["-a", "-l"]),
      sig("wc", ["-l"]),
      sig("echo"),
      sig("true"),
      sig("pwd"),
    ]);
  });

  test("separators inside quotes or escaped do not split", () => {
    expect(signaturesOf("echo 'a; rm -rf /' \"b && c\" d\\;e")).toEqual([sig("echo")]);
  });

  test("system bin dirs are stripped, other paths are kept so ./git never poses as git", () => {
    expect(signaturesOf("/usr/bin/git status")).toEqual([sig("git", [], ["status"])]);
    expect(signaturesOf("/bin/ls -l")).toEqual([sig("ls", ["-l"])]);
    expect(signaturesOf("./git status")).toEqual([sig("./git", [], ["status"])]);
  });

  test("harmless redirections and locale assignments are allowed", () => {
    expect(signaturesOf("LANG=C git status >/dev/null 2>&1")).toEqual([sig("git", [], ["status"])]);
    expect(signaturesOf("wc -l 2> /dev/null")).toEqual([sig("wc", ["-l"])]);
    expect(signaturesOf("ls &>/dev/null")).toEqual([sig("ls")]);
  });

  test("patterns behind a fixed prefix are fine", () => {
    expect(signaturesOf("grep -r --include=*.ts foo src/*.ts")).toEqual([sig("grep", ["--include", "-r"])]);
  });

  test("a trailing comment is ignored like the shell ignores it", () => {
    expect(signaturesOf("git status # ; rm -rf /")).toEqual([sig("git", [], ["status"])]);
  });
});
