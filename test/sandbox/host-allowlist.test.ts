import { describe, expect, test } from "bun:test";
import { hostAllowed } from "../../src/sandbox/host-allowlist.ts";

describe("sandbox network allowlist matching", () => {
  const allow = ["registry.npmjs.org", "*.pythonhosted.org", "10.0.0.5"];

  test("an exact entry matches its host, case-insensitively and with a root dot", () => {
    expect(hostAllowed("registry.npmjs.org", allow)).toBe(true);
    expect(hostAllowed("Registry.NPMJS.org", allow)).toBe(true);
    expect(hostAllowed("registry.npmjs.org.", allow)).toBe(true);
    expect(hostAllowed("10.0.0.5", allow)).toBe(true);
  });

  test("an exact entry does not cover its subdomains or look-alikes (negative)", () => {
    expect(hostAllowed("evil.registry.npmjs.org", allow)).toBe(false);
    expect(hostAllowed("registry.npmjs.org.evil.com", allow)).toBe(false);
    expect(hostAllowed("xregistry.npmjs.org", allow)).toBe(false);
    expect(hostAllowed("npmjs.org", allow)).toBe(false);
    expect(hostAllowed("10.0.0.50", allow)).toBe(false);
  });

  test("*.domain matches every name below it, not the domain itself", () => {
    expect(hostAllowed("files.pythonhosted.org", allow)).toBe(true);
    expect(hostAllowed("a.b.PythonHosted.org", allow)).toBe(true);
    expect(hostAllowed("pythonhosted.org", allow)).toBe(false);
    expect(hostAllowed("evilpythonhosted.org", allow)).toBe(false);
    expect(hostAllowed("pythonhosted.org.evil.com", allow)).toBe(false);
  });

  test("what is no host name is never allowed (negative)", () => {
    for (const host of [
      "",
      ".",
      "..pythonhosted.org",
      ".pythonhosted.org",
      "registry.npmjs.org\0",
      "a b",
      "::1",
      "registry%2enpmjs.org",
    ])
      expect(hostAllowed(host, allow)).toBe(false);
    expect(hostAllowed("anything.com", [])).toBe(false);
  });
});
