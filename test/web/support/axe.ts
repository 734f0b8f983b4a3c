/**
 * axe-core in the page (`@axe-core/playwright`): the serious and critical violations of WCAG 2.x
 * A/AA and best-practice rules, each as one line naming the rule and the elements, so a failing
 * test says what to fix. The context must have been opened with `bypassCSP` (the page's CSP
 * refuses axe's injected script, and rightly: that CSP is what keeps injected code out).
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";

/** `within`: a CSS selector to check only that part of the page (default: all of it). */
export async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags([
    "wcag2a",
    "wcag2aa",
    "wcag21a",
    "wcag21aa",
    "best-practice",
  ]);
  const results = await (within === undefined ? builder : builder.include(within)).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 5)
          .map((n) => n.target.join(" "))
          .join(", ")}`,
    );
}
