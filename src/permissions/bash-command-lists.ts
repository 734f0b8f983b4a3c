/**
 * The executables that signature grants treat specially (docs/permissions.md has the reasoning
 * and the same lists). Names are compared lower-cased, after `bash-command-policy.ts` strips
 * a version suffix (`python3.12` → `python`) and a GNU `g` prefix (`gtimeout` → `timeout`).
 */

/**
 * Programs that run another command given in their arguments (wrappers, privilege changes,
 * remote shells, schedulers), shells, and shell builtins/keywords that change what later words
 * mean. "Executable + flags" says nothing about what they run.
 */
// biome-ignore format: a word list reads best packed
export const RUNS_OTHER_COMMANDS: ReadonlySet<string> = new Set([
  // wrappers that exec their arguments
  "stdbuf", "taskset", "flock", "chrt", "unshare", "setpriv", "prlimit", "nsenter", "strace", "ltrace",
  "script", "env", "nice", "ionice", "nohup", "timeout", "xargs", "watch", "time", "setsid", "chroot",
  "busybox", "toybox", "parallel", "sem", "rush", "caffeinate", "unbuffer", "faketime", "fakeroot",
  "proot", "firejail", "bwrap", "systemd-run", "flatpak-spawn", "dbus-run-session", "dbus-launch",
  "xvfb-run", "catchsegv", "valgrind", "perf", "rr", "numactl", "cpulimit", "nocache", "torsocks",
  "proxychains", "proxychains4", "tsocks", "sshpass", "screen", "tmux", "run-parts", "start-stop-daemon",
  "daemonize", "sandbox-exec", "arch", "cross-env", "dotenv", "direnv", "watchexec", "nodemon", "entr",
  "concurrently", "chronic", "ifne", "pee", "vipe", "nix-shell", "nix", "guix", "at", "batch", "crontab",
  "ssh-agent", "rlwrap", "gosu", "su-exec", "chpst", "envdir", "setuidgid", "tini", "dumb-init", "setarch",
  "linux32", "linux64", "mpirun", "mpiexec", "srun", "cgexec", "systemd-inhibit", "winpty", "hyperfine",
  "sshfs", "ansible",
  // privilege changes and remote commands
  "sudo", "sudoedit", "doas", "su", "runuser", "sg", "newgrp", "pkexec", "ssh", "mosh", "rsh",
  // shells
  "sh", "bash", "zsh", "dash", "ksh", "mksh", "yash", "ash", "fish", "csh", "tcsh", "elvish", "nu",
  "pwsh", "powershell", "xonsh",
  // builtins and keywords (`read`, `let`, …: they set variables such as PATH for what follows)
  "eval", "exec", "command", "builtin", "source", ".", "trap", "alias", "hash", "enable", "export",
  "read", "mapfile", "readarray", "let", "unset", "getopts", "fc", "bind", "complete", "compgen",
  "declare", "typeset", "readonly", "local", "set", "shopt", "function", "if", "then", "else", "elif",
  "fi", "for", "while", "until", "do", "done", "case", "esac", "select", "in", "coproc", "{", "}", "!",
  "[[", "]]",
]);

/**
 * Interpreters, editors, pagers and tools whose own arguments can be a program: `python -c`,
 * `awk 'BEGIN{system(…)}'`, `sed 's/x/y/e'`, `vim -c '!…'`, `less` `!`, `make VAR=…`, `psql -c '\!…'`.
 * A grant that ignores arguments would be a grant to run anything.
 */
// biome-ignore format: a word list reads best packed
export const RUNS_CODE_FROM_ARGUMENTS: ReadonlySet<string> = new Set([
  "python", "pypy", "node", "nodejs", "deno", "tsx", "ts-node", "perl", "ruby", "irb", "php", "lua",
  "luajit", "tclsh", "wish", "expect", "rscript", "r", "julia", "osascript", "java", "jshell", "groovy",
  "scala", "kotlin", "sbcl", "guile", "racket", "ghci", "runghc", "runhaskell", "erl", "elixir", "iex",
  "swift", "dc", "awk", "mawk", "nawk", "sed", "ed", "ex", "vi", "vim", "nvim", "view", "vimdiff",
  "emacs", "emacsclient", "nano", "pico", "less", "more", "most", "pg", "man", "gdb", "lldb", "make",
  "bmake", "pmake", "cmake", "npx", "bunx", "pnpx", "uvx", "pipx", "sqlite3", "psql", "mysql", "mariadb",
  "open", "xdg-open", "gio", "fzf", "m4", "gnuplot", "octave", "rpm", "patch", "mvn", "sbt",
]);

/** `find` actions that run or delete (judged on whole words: find's `-name` is not `-n -a -m -e`). */
export const FIND_ACTIONS: ReadonlySet<string> = new Set([
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-delete",
  "-fprint",
  "-fprint0",
  "-fprintf",
  "-fls",
]);

/** Flags whose value is a command the program runs. Long flags match `--x` and `--x=…`. */
export interface CommandFlags {
  long?: string[];
  /** Single letters; they match anywhere in a short cluster (`-xIzstd` has `-I`). */
  short?: string[];
}

export const FLAGS_THAT_RUN_COMMANDS: ReadonlyMap<string, CommandFlags> = new Map<string, CommandFlags>([
  [
    "tar",
    {
      long: [
        "--use-compress-program",
        "--to-command",
        "--checkpoint-action",
        "--info-script",
        "--new-volume-script",
        "--rsh-command",
        "--rmt-command",
      ],
      short: ["I", "F"],
    },
  ],
  ["rsync", { long: ["--rsh", "--rsync-path"], short: ["e"] }],
  ["scp", { short: ["S", "o", "F"] }],
  ["sftp", { short: ["S", "o", "F", "D"] }],
  ["sort", { long: ["--compress-program"] }],
  ["split", { long: ["--filter"] }],
  ["fd", { long: ["--exec", "--exec-batch"], short: ["x", "X"] }],
  ["bat", { long: ["--pager"] }],
  ["ag", { long: ["--pager"] }],
  ["pandoc", { long: ["--filter", "--lua-filter"], short: ["F", "L"] }],
  ["rake", { long: ["--execute", "--execute-print", "--execute-continue"], short: ["e", "p", "E"] }],
  ["gradle", { long: ["--init-script"], short: ["I"] }],
  ["gradlew", { long: ["--init-script"], short: ["I"] }],
  [
    "aria2c",
    {
      long: [
        "--on-download-complete",
        "--on-download-start",
        "--on-download-error",
        "--on-download-stop",
        "--on-download-pause",
        "--on-bt-download-complete",
      ],
    },
  ],
  ["rg", { long: ["--pre"] }],
  ["zip", { long: ["--unzip-command"], short: ["T"] }],
  ["wget", { long: ["--execute", "--use-askpass"], short: ["e"] }],
  ["git", { long: ["--upload-pack", "--receive-pack", "--exec", "--extcmd", "--open-files-in-pager"] }],
  ["npm", { long: ["--script-shell", "--shell", "--node-options", "--call"], short: ["c"] }],
  ["pnpm", { long: ["--script-shell", "--shell", "--node-options"] }],
  ["yarn", { long: ["--script-shell", "--node-options"] }],
  ["bun", { long: ["--eval", "--print", "--preload", "--shell"], short: ["e", "p", "r"] }],
  // Go spells long flags with one dash; both spellings are listed.
  ["go", { long: ["-toolexec", "--toolexec", "-exec", "--exec", "-overlay", "--overlay"] }],
]);

/**
 * Tools whose first word is a subcommand. A v2 signature records it (so a `git status` grant
 * never covers `git push`). `refused`: subcommands that run code named in their arguments or
 * change configuration that later runs code (`git config core.fsmonitor=…`). `nested`: the next
 * word is part of the subcommand too (`npm run test`). `noPositionals`: the subcommand is
 * analysable only without positional arguments (`npm install` yes, `npm install some-package`
 * no: it downloads and runs that package's install scripts). `leadingFlags`: harmless options
 * allowed before the subcommand; any other option there is unanalysable.
 */
export interface SubcommandTool {
  refused?: string[];
  nested?: string[];
  noPositionals?: string[];
  leadingFlags?: string[];
  /** Short flags refused only with a given subcommand (`git rebase -x <cmd>`). */
  shortFlagsRunningCommands?: Record<string, string[]>;
}

const PACKAGE_INSTALL = [
  "install",
  "i",
  "in",
  "add",
  "install-test",
  "it",
  "install-ci-test",
  "cit",
  "link",
  "ln",
];
const CONTAINER_RUN = [
  "run",
  "exec",
  "create",
  "start",
  "compose",
  "build",
  "buildx",
  "plugin",
  "cp",
  "debug",
];

export const SUBCOMMAND_TOOLS: ReadonlyMap<string, SubcommandTool> = new Map<string, SubcommandTool>([
  [
    "git",
    {
      // biome-ignore format: a word list reads best packed
      refused: [
        "config", "bisect", "submodule", "filter-branch", "filter-repo", "difftool", "mergetool", "daemon",
        "instaweb", "web--browse", "hook", "credential", "send-email", "shell", "fsmonitor--daemon",
        "archimport", "cvsimport", "cvsserver", "svn", "p4", "remote-ext", "remote-fd", "upload-pack",
        "receive-pack", "sh-setup", "alias",
      ],
      leadingFlags: [
        "--no-pager",
        "-P",
        "--no-optional-locks",
        "--no-replace-objects",
        "--literal-pathspecs",
        "--glob-pathspecs",
        "--noglob-pathspecs",
        "--icase-pathspecs",
      ],
      shortFlagsRunningCommands: { rebase: ["x"], clone: ["u"], "ls-remote": ["u"], grep: ["O"] },
    },
  ],
  [
    "npm",
    {
      refused: ["exec", "x", "init", "create", "explore", "edit", "config", "set", "c"],
      nested: ["run", "run-script", "rum", "urn"],
      noPositionals: PACKAGE_INSTALL,
    },
  ],
  [
    "pnpm",
    {
      refused: ["exec", "dlx", "create", "init", "config", "env"],
      nested: ["run"],
      noPositionals: PACKAGE_INSTALL,
    },
  ],
  [
    "yarn",
    {
      refused: ["exec", "dlx", "create", "init", "config", "node", "global", "workspace", "workspaces"],
      nested: ["run"],
      noPositionals: PACKAGE_INSTALL,
    },
  ],
  [
    "bun",
    {
      refused: ["x", "exec", "create", "init", "repl", "link"],
      nested: ["run"],
      noPositionals: ["install", "i", "add", "a"],
    },
  ],
  ["pip", { refused: ["config"], noPositionals: ["install", "download", "wheel"] }],
  ["uv", { refused: ["run", "tool", "pip", "x"], noPositionals: ["add"] }],
  ["poetry", { refused: ["run", "shell", "config", "self"], noPositionals: ["add"] }],
  ["gem", { noPositionals: ["install", "i"] }],
  ["cargo", { refused: ["config"], noPositionals: ["install"] }],
  ["go", { refused: ["env", "tool"], nested: ["run"], noPositionals: ["install", "get"] }],
  [
    "brew",
    { refused: ["sh", "ruby", "irb", "bundle", "tap", "exec"], noPositionals: ["install", "reinstall"] },
  ],
  ["gh", { refused: ["extension", "ext", "alias", "config", "codespace", "cs"] }],
  ["docker", { refused: CONTAINER_RUN }],
  ["podman", { refused: CONTAINER_RUN }],
  ["nerdctl", { refused: CONTAINER_RUN }],
  ["kubectl", { refused: ["exec", "run", "debug", "attach", "cp", "plugin"] }],
  ["conda", { refused: ["run", "shell", "init", "config"], noPositionals: ["install"] }],
  ["mamba", { refused: ["run", "shell", "init", "config"], noPositionals: ["install"] }],
  ["micromamba", { refused: ["run", "shell", "init", "config"], noPositionals: ["install"] }],
  ["pipenv", { refused: ["run", "shell"], noPositionals: ["install"] }],
  ["pdm", { refused: ["run", "config"], noPositionals: ["add"] }],
  ["hatch", { refused: ["run", "shell", "config"] }],
  ["rye", { refused: ["run", "shell", "config"], noPositionals: ["add", "install"] }],
  ["bundle", { refused: ["exec", "config"], noPositionals: ["add"] }],
  ["composer", { refused: ["exec", "global", "config", "create-project"], noPositionals: ["require"] }],
  ["dotnet", { refused: ["exec", "tool", "run"], noPositionals: ["add"] }],
  ["rustup", { refused: ["run"] }],
  ["asdf", { refused: ["exec", "env"] }],
  ["mise", { refused: ["exec", "x", "run", "r", "settings", "use"] }],
  ["volta", { refused: ["run"] }],
  ["pyenv", { refused: ["exec"] }],
  ["rbenv", { refused: ["exec"] }],
  ["flatpak", { refused: ["run", "enter", "override"] }],
  ["snap", { refused: ["run"] }],
  // The directory is recorded: it decides which repository or project configuration later
  // commands on the line read (`cd /tmp/evil && git status` runs that repository's hooks).
  ["cd", {}],
  ["pushd", {}],
  ["popd", {}],
]);
