/** Provider error messages stay readable: HTML pages summarised, everything capped. */
import { describe, expect, test } from "bun:test";
import { MAX_ERROR_MESSAGE_CHARS, summarizeErrorMessage } from "../../src/providers/error-summary.ts";

describe("summarizeErrorMessage", () => {
  test("an HTML page becomes the status and its title, or its first line of text", () => {
    expect(summarizeErrorMessage("502 <html><head><title>502 Bad Gateway</title></head></html>", 502)).toBe(
      "502 Bad Gateway",
    );
    expect(
      summarizeErrorMessage(
        "<!DOCTYPE html><html><body>\n<h1>Service &amp; co down</h1><p>x</p></body></html>",
        503,
      ),
    ).toBe("503 Service & co down");
    expect(summarizeErrorMessage("<html><body></body></html>", undefined)).toBe("an HTML error page");
  });

  test("plain messages are kept, and capped", () => {
    expect(summarizeErrorMessage("rate limited: try again", 429)).toBe("rate limited: try again");
    const long = summarizeErrorMessage("x".repeat(10_000), 400);
    expect(long).toHaveLength(MAX_ERROR_MESSAGE_CHARS);
    expect(long.endsWith("…")).toBe(true);
  });
});
