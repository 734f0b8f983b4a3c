/**
 * A deliberately small shell lexer for permission analysis. It understands quoting, escapes,
 * command separators and a few harmless redirections; anything else (expansions, subshells,
 * here-docs, file redirections) is reported as unsafe so no grant can ever match it.
 */

export interface ShellWord {
  /** The word after quote removal: what the program receives as an argument. */
  text: string;
  /** The source spelling, used to tell `A=b cmd` (assignment) from `"A=b" cmd`. */
  raw: string;
  /** First character when it was unquoted (glob/brace checks), else undefined. */
  unquotedLead: string | undefined;
  /** Index in `text` of the first unquoted glob or brace character (`* ? [ {`), or -1. */
  patternIndex: number;
}

export type LexResult = { ok: true; commands: ShellWord[][] } | { ok: false; reason: string };

class UnsafeShell extends Error {}

const WORD_END = new Set([" ", "\t", "\n", ";", "&", "|", "<", ">", "(", ")"]);
const PATTERN_CHARS = new Set(["*", "?", "[", "{"]);
const DQUOTE_ESCAPABLE = new Set(['"', "\\", "$", "`", "\n"]);

/** Split a command line into simple commands (lists of words), or say why it cannot be analysed. */
export function lexShell(source: string): LexResult {
  try {
    return { ok: true, commands: new Lexer(source).run() };
  } catch (err) {
    if (err instanceof UnsafeShell) return { ok: false, reason: err.message };
    throw err;
  }
}

class Lexer {
  private i = 0;
  private readonly commands: ShellWord[][] = [];
  private current: ShellWord[] = [];

  constructor(private readonly src: string) {}

  run(): ShellWord[][] {
    const { src } = this;
    // Each pass reads the character at `i`; the branches move `i` past what they consumed.
    for (let c = src[this.i]; c !== undefined; c = src[this.i]) {
      const next = src[this.i + 1];
      if (c === " " || c === "\t") {
        this.i += 1;
      } else if (c === "\\" && next === "\n") {
        this.i += 2; // line continuation
      } else if (c === "\n" || c === ";") {
        this.endCommand();
        this.i += 1;
      } else if (c === "|") {
        this.endCommand();
        this.i += next === "|" || next === "&" ? 2 : 1;
      } else if (c === "&") {
        if (next === ">") {
          this.i += 1;
          this.redirection();
        } else {
          this.endCommand();
          this.i += next === "&" ? 2 : 1;
        }
      } else if (c === ">" || c === "<") {
        this.redirection();
      } else if (c === "(" || c === ")") {
        throw new UnsafeShell("subshells and grouping are not analysed");
      } else if (c === "#") {
        while (this.i < src.length && src[this.i] !== "\n") this.i += 1;
      } else {
        const word = this.readWord();
        const after = src[this.i];
        // `2>file`: an all-digit word glued to a redirection operator is its fd, not an argument.
        const isFd = (after === ">" || after === "<") && /^\d+$/.test(word.raw);
        if (!isFd) this.current.push(word);
      }
    }
    this.endCommand();
    return this.commands;
  }

  private endCommand(): void {
    if (this.current.length > 0) this.commands.push(this.current);
    this.current = [];
  }

  /** At `>` or `<`: accept only redirections that touch no file (`>/dev/null`, `2>&1`). */
  private redirection(): void {
    const { src } = this;
    const op = src[this.i];
    this.i += 1;
    if (op === "<") {
      if (src[this.i] === "<") throw new UnsafeShell("here-documents and here-strings are not analysed");
      if (src[this.i] === "(") throw new UnsafeShell("process substitution is not analysed");
      if (src[this.i] === "&") throw new UnsafeShell("input descriptor duplication is not analysed");
      if (this.readTarget() !== "/dev/null") throw new UnsafeShell("input redirection from a file");
      return;
    }
    if (src[this.i] === ">" || src[this.i] === "|") this.i += 1;
    if (src[this.i] === "(") throw new UnsafeShell("process substitution is not analysed");
    if (src[this.i] === "&") {
      this.i += 1;
      const target = this.readTarget();
      if (/^\d+$/.test(target) || target === "/dev/null") return;
      throw new UnsafeShell("redirection to a file");
    }
    if (this.readTarget() !== "/dev/null") throw new UnsafeShell("redirection to a file");
  }

  private readTarget(): string {
    while (this.src[this.i] === " " || this.src[this.i] === "\t") this.i += 1;
    const at = this.src[this.i];
    if (at === undefined || WORD_END.has(at)) throw new UnsafeShell("redirection without a target");
    return this.readWord().text;
  }

  private readWord(): ShellWord {
    const { src } = this;
    const start = this.i;
    let text = "";
    let unquotedLead: string | undefined;
    let patternIndex = -1;
    for (let c = src[this.i]; c !== undefined; c = src[this.i]) {
      if (WORD_END.has(c)) break;
      const atStart = this.i === start;
      if (c === "\\") {
        const escaped = src[this.i + 1];
        if (escaped === undefined) throw new UnsafeShell("trailing backslash");
        if (escaped !== "\n") text += escaped;
        this.i += 2;
      } else if (c === "'") {
        const close = src.indexOf("'", this.i + 1);
        if (close < 0) throw new UnsafeShell("unbalanced single quote");
        text += src.slice(this.i + 1, close);
        this.i = close + 1;
      } else if (c === '"') {
        text += this.readDoubleQuoted();
      } else if (c === "`") {
        throw new UnsafeShell("command substitution is not analysed");
      } else if (c === "$") {
        const after = src[this.i + 1];
        if (after === "(") throw new UnsafeShell("command substitution is not analysed");
        if (after !== undefined && !WORD_END.has(after)) {
          throw new UnsafeShell("parameter, arithmetic or command expansion is not analysed");
        }
        text += c;
        this.i += 1;
      } else {
        if (atStart) unquotedLead = c;
        if (patternIndex < 0 && PATTERN_CHARS.has(c)) patternIndex = text.length;
        text += c;
        this.i += 1;
      }
    }
    return { text, raw: src.slice(start, this.i), unquotedLead, patternIndex };
  }

  private readDoubleQuoted(): string {
    const { src } = this;
    let text = "";
    this.i += 1;
    for (let c = src[this.i]; c !== undefined; c = src[this.i]) {
      if (c === '"') {
        this.i += 1;
        return text;
      }
      const next = src[this.i + 1];
      if (c === "\\" && next !== undefined && DQUOTE_ESCAPABLE.has(next)) {
        if (next !== "\n") text += next;
        this.i += 2;
      } else if (c === "`") {
        throw new UnsafeShell("command substitution is not analysed");
      } else if (c === "$" && next !== undefined && next !== '"' && !/\s/.test(next)) {
        throw new UnsafeShell("parameter, arithmetic or command expansion is not analysed");
      } else {
        text += c;
        this.i += 1;
      }
    }
    throw new UnsafeShell("unbalanced double quote");
  }
}
