import { expect, test } from "bun:test";
import { errorResponse, okResponse, salvageCorrelation } from "../../src/wire/response.ts";

test("success and error responses echo id and command", () => {
  expect(okResponse({ type: "set_mode", id: "r1" }, { mode: "plan" })).toEqual({
    type: "response",
    id: "r1",
    command: "set_mode",
    success: true,
    data: { mode: "plan" },
  });
  expect(errorResponse({ type: "abort", id: "r2" }, { code: "CONFLICT", message: "busy" })).toEqual({
    type: "response",
    id: "r2",
    command: "abort",
    success: false,
    error: { code: "CONFLICT", message: "busy" },
  });
});

test("salvages id and type from broken input", () => {
  expect(salvageCorrelation({ id: "x", type: "nope", junk: 1 })).toEqual({ id: "x", type: "nope" });
  expect(salvageCorrelation(42)).toEqual({ type: "unknown" });
  expect(salvageCorrelation({ id: 5 })).toEqual({ type: "unknown" });
});
