/**
 * The enrollment rate limit (docs/auth.md): per source and global, a lock refuses every code
 * that was open when the attack's first lock began, and never a code minted after that, however
 * long the attack keeps renewing the lock. The class itself, on an injected clock,
 * with sources named freely (over HTTP every test request comes from 127.0.0.1; the one-source
 * case over HTTP is in enroll-bootstrap.test.ts). And a code whose enrollment failed to be
 * written stays good.
 */
import { describe, expect, test } from "bun:test";
import {
  ENROLLMENT_CODE_TTL_MS,
  EnrollmentCodes,
  FAILED_REDEMPTION_WINDOW_MS,
  MAX_FAILED_REDEMPTIONS,
  MAX_FAILED_REDEMPTIONS_GLOBAL,
  MAX_TRACKED_SOURCES,
  type Redemption,
} from "../../../src/daemon/auth/enrollment-codes.ts";

const spend = () => "enrolled";
/** Which lock a refused attempt began, if any. */
const lockBegun = (redemption: Redemption<string>) => (redemption.ok ? undefined : redemption.locked);
const WRONG = "A".repeat(43);

function setup() {
  let now = 1_000_000;
  const codes = new EnrollmentCodes(() => now);
  return {
    codes,
    advance: (ms: number) => {
      now += ms;
    },
    fail: (source: string, times: number) => {
      for (let i = 0; i < times; i++) codes.redeem(WRONG, source, spend);
    },
  };
}

describe("the per-source limit", () => {
  test("locks the flooding source, even for a right code; another source is not affected", () => {
    const { codes, fail } = setup();
    const open = codes.mint().code;
    const other = codes.mint().code;
    fail("10.0.0.66", MAX_FAILED_REDEMPTIONS - 1);
    expect(codes.redeem(WRONG, "10.0.0.66", spend)).toEqual({
      ok: false,
      reason: "invalid",
      locked: "source",
    });
    expect(codes.redeem(open, "10.0.0.66", spend)).toEqual({ ok: false, reason: "rate_limited" });
    expect(codes.retryAfterMs("10.0.0.66")).toBeGreaterThan(0);
    expect(codes.redeem(other, "10.0.0.7", spend)).toEqual({ ok: true, value: "enrolled" });
    expect(codes.retryAfterMs("10.0.0.7")).toBe(0);
  });

  test("a locked source's attempts are not counted: one source alone never reaches the global lock", () => {
    const { codes, fail } = setup();
    const open = codes.mint().code;
    fail("10.0.0.66", MAX_FAILED_REDEMPTIONS_GLOBAL * 10);
    expect(codes.redeem(open, "10.0.0.7", spend).ok).toBe(true);
  });

  test("the lock ends when the window has passed", () => {
    const { codes, fail, advance } = setup();
    const open = codes.mint().code;
    fail("10.0.0.66", MAX_FAILED_REDEMPTIONS);
    expect(codes.redeem(open, "10.0.0.66", spend).ok).toBe(false);
    advance(FAILED_REDEMPTION_WINDOW_MS);
    expect(codes.redeem(open, "10.0.0.66", spend).ok).toBe(true);
  });
});

describe("the global limit", () => {
  test("failures spread over many sources lock every source, a right code of that time too", () => {
    const { codes, fail } = setup();
    const open = codes.mint().code;
    const sources = Math.ceil(MAX_FAILED_REDEMPTIONS_GLOBAL / (MAX_FAILED_REDEMPTIONS - 1));
    for (let s = 0; s < sources; s++) fail(`10.1.0.${s}`, MAX_FAILED_REDEMPTIONS - 1);
    expect(codes.redeem(open, "10.0.0.7", spend)).toEqual({ ok: false, reason: "rate_limited" });
    expect(codes.retryAfterMs("10.0.0.7")).toBeGreaterThan(0);
  });

  test("a code minted after the lock began enrolls at once, from any source; the flood goes on meanwhile", () => {
    const { codes, fail } = setup();
    const before = codes.mint().code;
    for (let s = 0; s < MAX_FAILED_REDEMPTIONS_GLOBAL; s++) fail(`10.1.0.${s}`, 1);
    const fresh = codes.mint().code;
    fail("10.1.0.99", 100);
    expect(codes.redeem(WRONG, "127.0.0.1", spend)).toEqual({ ok: false, reason: "rate_limited" });
    expect(codes.redeem(before, "127.0.0.1", spend).ok).toBe(false);
    expect(codes.redeem(fresh, "127.0.0.1", spend)).toEqual({ ok: true, value: "enrolled" });
    // Still single use.
    expect(codes.redeem(fresh, "127.0.0.1", spend).ok).toBe(false);
  });
});

describe("an attack that keeps renewing the lock", () => {
  // Just under the code's lifetime: the fresh code is redeemed as late as it can be.
  const ATTACK_MS = ENROLLMENT_CODE_TTL_MS - 30_000;

  test("one wrong code every 12 s from the owner's address: a code minted meanwhile enrolls minutes later", () => {
    const { codes, fail, advance } = setup();
    const before = codes.mint().code;
    const step = FAILED_REDEMPTION_WINDOW_MS / MAX_FAILED_REDEMPTIONS;
    let lockBegan = false;
    for (let i = 0; i < MAX_FAILED_REDEMPTIONS; i++) {
      lockBegan = lockBegun(codes.redeem(WRONG, "127.0.0.1", spend)) === "source";
      advance(step);
    }
    expect(lockBegan).toBe(true);
    const fresh = codes.mint().code;
    // Each time the oldest failure leaves the window, the next wrong code locks the address again.
    let renewals = 0;
    for (let t = 0; t < ATTACK_MS; t += step) {
      if (lockBegun(codes.redeem(WRONG, "127.0.0.1", spend)) === "source") renewals++;
      advance(step);
    }
    fail("127.0.0.1", 1);
    expect(renewals).toBeGreaterThan(10);
    // The lock is in force: a wrong code and the code open before the attack are refused unchecked.
    expect(codes.redeem(WRONG, "127.0.0.1", spend)).toEqual({ ok: false, reason: "rate_limited" });
    expect(codes.redeem(before, "127.0.0.1", spend)).toEqual({ ok: false, reason: "rate_limited" });
    expect(codes.redeem(fresh, "127.0.0.1", spend)).toEqual({ ok: true, value: "enrolled" });
  });

  test("wrong codes spread over 127.0.0.x, more addresses than are remembered: the fresh code still enrolls", () => {
    const { codes, advance } = setup();
    const before = codes.mint().code;
    const step = FAILED_REDEMPTION_WINDOW_MS / MAX_FAILED_REDEMPTIONS_GLOBAL;
    let spread = 0;
    const began = new Set<string>();
    // Each step one wrong code from the owner's address (locked, forgotten as the other addresses
    // push it out, locked again) and one from the next of 127.0.0.2 … 127.0.0.254.
    const attack = () => {
      for (const source of ["127.0.0.1", `127.0.0.${2 + (spread++ % 253)}`]) {
        const locked = lockBegun(codes.redeem(WRONG, source, spend));
        if (locked !== undefined) began.add(locked);
      }
    };
    while (!began.has("global")) {
      attack();
      advance(step);
    }
    const fresh = codes.mint().code;
    began.clear();
    for (let t = 0; t < ATTACK_MS; t += step) {
      attack();
      advance(step);
    }
    attack();
    expect([...began].sort()).toEqual(["global", "source"]);
    expect(spread).toBeGreaterThan(MAX_TRACKED_SOURCES * 2);
    expect(codes.redeem(WRONG, "127.0.0.1", spend)).toEqual({ ok: false, reason: "rate_limited" });
    expect(codes.redeem(before, "127.0.0.1", spend)).toEqual({ ok: false, reason: "rate_limited" });
    expect(codes.redeem(fresh, "127.0.0.1", spend)).toEqual({ ok: true, value: "enrolled" });
  });

  test("a new attack after a quiet window refuses the codes open when its own first lock began", () => {
    const { codes, fail, advance } = setup();
    fail("10.0.0.66", MAX_FAILED_REDEMPTIONS);
    const between = codes.mint().code;
    advance(FAILED_REDEMPTION_WINDOW_MS);
    fail("10.0.0.66", MAX_FAILED_REDEMPTIONS);
    expect(codes.redeem(between, "10.0.0.66", spend)).toEqual({ ok: false, reason: "rate_limited" });
    // The same attack going on (less than a window between failures): no new mark.
    const during = codes.mint().code;
    advance(FAILED_REDEMPTION_WINDOW_MS - 1);
    fail("10.0.0.66", MAX_FAILED_REDEMPTIONS);
    expect(codes.redeem(during, "10.0.0.66", spend)).toEqual({ ok: true, value: "enrolled" });
  });
});

test("memory stays bounded: at most MAX_TRACKED_SOURCES sources are remembered", () => {
  const { codes, fail, advance } = setup();
  for (let s = 0; s < MAX_TRACKED_SOURCES * 3; s++) {
    fail(`10.2.${Math.floor(s / 250)}.${s % 250}`, 1);
    // Stay under the global lock (which stops counting, so no source would be added).
    if ((s + 1) % (MAX_FAILED_REDEMPTIONS_GLOBAL - 1) === 0) advance(FAILED_REDEMPTION_WINDOW_MS);
  }
  expect(codes.trackedSources()).toBe(MAX_TRACKED_SOURCES);
});

test("a code whose enrollment throws (the store write failed) stays good, and is spent once it succeeds", () => {
  const { codes } = setup();
  const code = codes.mint().code;
  expect(() =>
    codes.redeem(code, "127.0.0.1", () => {
      throw new Error("ENOSPC");
    }),
  ).toThrow("ENOSPC");
  expect(codes.redeem(code, "127.0.0.1", spend)).toEqual({ ok: true, value: "enrolled" });
  expect(codes.redeem(code, "127.0.0.1", spend)).toEqual({ ok: false, reason: "invalid" });
});
