/**
 * What a terminal shows after a byte stream: enough of a VT100 to follow readline and Shard's
 * own redraws (cursor moves, line and screen erases, auto-wrap), so a test asserts on the
 * screen a person sees rather than on escape sequences. Every character is one column wide;
 * colours and modes are ignored. A line feed only moves down (the terminal's ONLCR adds the
 * carriage return), so output that forgets one shows up skewed here as it would for real.
 */

const ESC = "\u001b";

export class TerminalScreen {
  private readonly rows: string[][] = [[]];
  private row = 0;
  private col = 0;
  private saved = { row: 0, col: 0 };
  private pending = "";

  constructor(private readonly cols: number) {}

  write(text: string): void {
    const chars = Array.from(this.pending + text);
    this.pending = "";
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] ?? "";
      if (c === ESC) {
        const end = this.escape(chars, i);
        if (end === undefined) {
          this.pending = chars.slice(i).join("");
          return;
        }
        i = end;
      } else if (c === "\r") this.col = 0;
      else if (c === "\n") this.moveTo(this.row + 1, this.col);
      else if (c === "\b") this.col = Math.max(0, this.col - 1);
      else if (c >= " ") this.put(c);
    }
  }

  /** The screen's lines, trailing spaces and trailing empty lines removed. */
  lines(): string[] {
    const lines = this.rows.map((_, row) => this.text(row));
    while (lines.length > 0 && lines.at(-1) === "") lines.pop();
    return lines;
  }

  /** The line the cursor is on, and its column. */
  cursor(): { line: string; col: number } {
    return { line: this.text(this.row), col: this.col };
  }

  /** The line `above` lines above the cursor's ("" past the top). */
  above(above: number): string {
    return this.row - above < 0 ? "" : this.text(this.row - above);
  }

  private text(row: number): string {
    return (this.rows[row] ?? [])
      .map((c) => c || " ")
      .join("")
      .trimEnd();
  }

  private put(c: string): void {
    if (this.col >= this.cols) this.moveTo(this.row + 1, 0);
    const line = this.line(this.row);
    while (line.length < this.col) line.push(" ");
    line[this.col] = c;
    this.col++;
  }

  private line(row: number): string[] {
    while (this.rows.length <= row) this.rows.push([]);
    return this.rows[row] ?? [];
  }

  private moveTo(row: number, col: number): void {
    this.row = Math.max(0, row);
    this.col = Math.max(0, Math.min(col, this.cols - 1));
    this.line(this.row);
  }

  /** Applies the escape sequence at `start`; its last index, or undefined when it is cut off. */
  private escape(chars: string[], start: number): number | undefined {
    const next = chars[start + 1];
    if (next === undefined) return undefined;
    if (next === "7") this.saved = { row: this.row, col: this.col };
    if (next === "8") this.moveTo(this.saved.row, this.saved.col);
    if (next !== "[") return start + 1;
    let end = start + 2;
    while (end < chars.length && !/[@-~]/.test(chars[end] ?? "")) end++;
    if (end >= chars.length) return undefined;
    const params = chars.slice(start + 2, end).join("");
    if (params.startsWith("?")) return end;
    const [a = NaN, b = NaN] = params.split(";").map((p) => Number.parseInt(p, 10));
    const n = Number.isNaN(a) ? 1 : a;
    const line = this.line(this.row);
    switch (chars[end]) {
      case "A":
        this.moveTo(this.row - n, this.col);
        break;
      case "B":
        this.moveTo(this.row + n, this.col);
        break;
      case "C":
        this.moveTo(this.row, this.col + n);
        break;
      case "D":
        this.moveTo(this.row, this.col - n);
        break;
      case "G":
        this.moveTo(this.row, n - 1);
        break;
      case "H":
        this.moveTo(n - 1, (Number.isNaN(b) ? 1 : b) - 1);
        break;
      case "K":
        if (Number.isNaN(a) || a === 0) line.length = Math.min(line.length, this.col);
        else if (a === 1) line.fill(" ", 0, this.col + 1);
        else line.length = 0;
        break;
      case "J":
        if (Number.isNaN(a) || a === 0) {
          line.length = Math.min(line.length, this.col);
          this.rows.length = this.row + 1;
        }
        break;
    }
    return end;
  }
}
