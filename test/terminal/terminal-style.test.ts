/** Colour and the spinner of `shard run` on a terminal, as units. */
import { describe, expect, test } from "bun:test";
import { onOwnLine, Spinner } from "../../src/terminal/spinner.ts";
import { colourWanted, terminalStyle } from "../../src/terminal/terminal-style.ts";

describe("colourWanted", () => {
  test("a terminal gets colour; a pipe does not; NO_COLOR wins; FORCE_COLOR forces", () => {
    expect(colourWanted(true, {})).toBe(true);
    expect(colourWanted(false, {})).toBe(false);
    expect(colourWanted(true, { NO_COLOR: "1" })).toBe(false);
    expect(colourWanted(true, { NO_COLOR: "" })).toBe(true);
    expect(colourWanted(false, { FORCE_COLOR: "1" })).toBe(true);
    expect(colourWanted(true, { FORCE_COLOR: "0" })).toBe(false);
    expect(colourWanted(true, { NO_COLOR: "1", FORCE_COLOR: "1" })).toBe(false);
  });

  test("without colour the marks are the bare text", () => {
    expect(terminalStyle(false).ok("✓")).toBe("✓");
    expect(terminalStyle(true).ok("✓")).toBe("\u001b[32m✓\u001b[0m");
  });
});

describe("Spinner", () => {
  function spinner(mayDraw = () => true) {
    let now = 0;
    let out = "";
    const s = new Spinner({ ...onOwnLine((t) => (out += t)), mayDraw, now: () => now });
    return { s, advance: (ms: number) => (now += ms), out: () => out };
  }

  test("shows after a quiet moment with the time since the turn began, and clears before output", () => {
    const { s, advance, out } = spinner();
    s.start();
    advance(100);
    s.tick();
    expect(out()).toBe("");
    advance(2_400);
    s.tick();
    expect(out()).toContain("working 2.5 s");
    const before = out().length;
    s.clear();
    expect(out().slice(before)).toBe("\r\u001b[2K");
    s.clear(); // nothing shown now: nothing to clear
    expect(out().slice(before)).toBe("\r\u001b[2K");
    s.stop();
  });

  test("never draws over an answer that is mid-line", () => {
    const { s, advance, out } = spinner(() => false);
    s.start();
    advance(5_000);
    s.tick();
    expect(out()).toBe("");
    s.stop();
  });
});
