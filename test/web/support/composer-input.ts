/**
 * Types into the composer and presses Enter once the page can send: Enter while the composer
 * still says "Attaching to the agent…" keeps the text and sends nothing, so a test that presses
 * it straight after creating or opening an agent races the attach.
 */
import type { Page } from "playwright-core";

export async function typeAndSend(page: Page, text: string): Promise<void> {
  const input = page.getByTestId("composer-input");
  await input.fill(text);
  await page.locator('[data-testid="send"]:enabled').waitFor();
  await input.press("Enter");
}
