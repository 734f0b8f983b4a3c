/**
 * Signature grants must not turn into "run anything": wrappers that run another command and
 * tools that run code from their own arguments get no signature (negative tests).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RUNS_CODE_FROM_ARGUMENTS, RUNS_OTHER_COMMANDS } from "../../src/permissions/bash-command-lists.ts";
import { analyzeBashCommand } from "../../src/permissions/bash-signature.ts";

function expectUnanalysable(command: string): void {
  const analysis = analyzeBashCommand(command);
  expect({ command, ok: analysis.ok }).toEqual({ command, ok: false });
}

describe("executables that run another command get no signature", () => {
  // The list, each running a command that writes a file.
  // biome-ignore format: a word list reads best packed
  const wrappers = [
    "stdbuf -oL", "taskset -c 0", "flock /tmp/l", "chrt -f 1", "unshare -r", "setpriv --reuid=1000",
    "prlimit --nofile=10", "nsenter -t 1", "strace -f", "ltrace", "script -qc", "runuser -u me --", "sg staff",
    "su -c", "sudo", "doas", "ssh host", "env", "nice -n 5", "nohup", "timeout 5", "xargs", "watch -n1",
    "time", "exec", "command", "builtin", "eval", "source", ".", "busybox", "ionice -c3", "chroot /",
    "setsid", "parallel", "pkexec", "gtimeout 5", "/usr/bin/env", "/usr/bin/stdbuf -oL", "./stdbuf -oL",
    "Sudo", "zsh -c", "tmux new-session", "cross-env A=1", "hyperfine", "ssh-agent", "rlwrap", "setarch x86_64",
  ];
  for (const wrapper of wrappers) {
    test(wrapper, () => expectUnanalysable(`${wrapper} touch M`));
  }
});

describe("tools that can run code from their arguments get no signature", () => {
  // biome-ignore format: a word list reads best packed
  const commands = [
    "python -c 'import os'", "python3 -c 'import os'", "python3.12 x.py", "node -e 'x'", "perl -e 'x'",
    "ruby -e 'x'", "bash -c 'touch M'", "sh -c 'touch M'", "deno eval 'x'", "awk 'BEGIN{system(\"touch M\")}'",
    "gawk -f x.awk", "sed -n '1e touch M' f", "sed 's/x/touch M/e' f", "vim -c '!touch M'", "less f",
    "make", "make test CC=evil", "npx cowsay", "bunx cowsay", "sqlite3 db .shell", "psql -c x", "dc -e x",
    "find . -exec touch M ;", "find . -execdir rm {} +", "find . -ok rm {} +", "find . -name x -delete",
    "tar -I 'touch M' -xf a.tar", "tar xIf evil a.tar", "tar --use-compress=evil -xf a", "tar --to-command=x -xf a",
    "rsync -e 'touch M' a b", "rsync --rsh=x a b", "rg --pre=./evil foo", "sort --compress-program=x f",
    "zip -TT 'touch M' a.zip f", "scp -S ./evil a b", "wget --use-askpass=x u", "go run -exec ./evil .",
    "go build -toolexec=./evil", "bun -e 'x'", "bun --eval x", "bun -r ./evil.ts test", "fd -x touch M",
    "fd . --exec-batch touch", "split --filter='touch M' f", "bat --pager='touch M' f", "fzf --preview 'x'",
    "pandoc --lua-filter=x.lua a.md", "m4 x.m4", "mvn exec:exec", "gradle -I evil.gradle build",
  ];
  for (const command of commands) test(command, () => expectUnanalysable(command));
});

describe("builtins that set variables for the commands after them get no signature", () => {
  for (const command of [
    "printf -v PATH %s /tmp/evil",
    "read PATH",
    "mapfile PATH",
    "let x=1",
    "unset PATH",
  ]) {
    test(command, () => expectUnanalysable(`${command}; git status`));
  }
});

describe("subcommand tools: code-running subcommands and global options get no signature", () => {
  // biome-ignore format: a word list reads best packed
  const commands = [
    "git -c core.pager='touch M' log", "git -c alias.x='!touch M' x", "git -c core.hooksPath=/tmp/h commit",
    "git --exec-path=/tmp status", "git -C /tmp/evil status", "git --git-dir=/tmp/g status",
    "git config core.fsmonitor 'touch M'", "git config alias.x '!touch M'", "git bisect run touch M",
    "git submodule foreach 'touch M'", "git filter-branch --tree-filter 'touch M'", "git difftool -x 'touch M'",
    "git rebase -x 'touch M' HEAD~1", "git rebase --exec 'touch M' HEAD~1", "git fetch --upload-pack='touch M' o",
    "git clone -u 'touch M' r", "git push --receive-pack=x", "git grep -O'touch M' x", "git hook run pre-commit",
    "git sta*", "npm exec cowsay", "npm x cowsay", "npm install cowsay", "npm i -D cowsay", "npm init react-app",
    "npm config set script-shell ./evil", "npm --prefix /tmp run build", "npm run --silent build",
    "npm run build --script-shell=./evil", "npm test --node-options=--require=./evil.js",
    "pnpm dlx cowsay", "pnpm add cowsay", "yarn dlx cowsay", "yarn add cowsay", "yarn global add cowsay",
    "bun x cowsay", "bun add cowsay", "bun exec 'touch M'", "pip install evil", "pip3 install evil",
    "uv run x.py", "cargo install evil", "go install evil@latest", "go get evil", "go env -w GOFLAGS=-x",
    "gem install evil", "brew install evil", "gh extension install x/y", "gh alias set x --shell 'touch M'",
    "docker run alpine touch M", "docker exec c touch M", "kubectl exec p -- touch M", "conda run x",
    "pipenv run x", "bundle exec x", "dotnet tool run x", "mise exec -- x", "cd -P /tmp", "cd sr*",
  ];
  for (const command of commands) test(command, () => expectUnanalysable(command));
});

describe("docs/permissions.md lists every executable the code refuses", () => {
  test("every name appears in the document", () => {
    const doc = readFileSync(join(import.meta.dir, "../../docs/permissions.md"), "utf8");
    const missing = [...RUNS_OTHER_COMMANDS, ...RUNS_CODE_FROM_ARGUMENTS].filter(
      (name) => !doc.includes(`\`${name}\``),
    );
    expect(missing).toEqual([]);
  });
});
