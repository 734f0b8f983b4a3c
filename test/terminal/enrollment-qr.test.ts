/** The enrollment QR code decodes to the very link printed above it, at the lengths links have. */
import { describe, expect, test } from "bun:test";
import { enrollmentQr, writeEnrollmentQr } from "../../src/terminal/enrollment-qr.ts";
import { decodeTerminalQr } from "../support/terminal-qr.ts";

const CODE = "Ab3_-xYz09Ab3_-xYz09Ab3_-xYz09Ab3_-xYz09Ab3";

describe("enrollmentQr", () => {
  test("a loopback and a public link decode to themselves", () => {
    for (const url of [
      `http://127.0.0.1:45678/#enroll=${CODE}`,
      `https://shard.example.com:8443/#enroll=${CODE}`,
    ]) {
      expect(decodeTerminalQr(enrollmentQr(url))).toBe(url);
    }
  });

  test("fits an 80-column terminal", () => {
    const widest = Math.max(
      ...enrollmentQr(`https://a-rather-long-host-name.example.com/#enroll=${CODE}`)
        .split("\n")
        .map((l) => l.length),
    );
    expect(widest).toBeLessThanOrEqual(80);
  });

  test("is written to a terminal only", () => {
    let written = "";
    const out = (isTTY: boolean) => ({ isTTY, write: (text: string) => (written += text) });
    writeEnrollmentQr("http://127.0.0.1:1/#enroll=x", out(false));
    expect(written).toBe("");
    writeEnrollmentQr("http://127.0.0.1:1/#enroll=x", out(true));
    expect(decodeTerminalQr(written)).toBe("http://127.0.0.1:1/#enroll=x");
  });
});
