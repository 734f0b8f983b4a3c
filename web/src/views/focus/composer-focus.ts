/** Where typing goes back to after a dialog is answered from the keyboard or with a mouse. */
const COMPOSER_INPUT = '[data-testid="composer-input"]';

/**
 * Puts the caret back in the composer, so the next key typed is text again and can never answer
 * a dialog that opens next. Not on touch screens, where it would pop up the keyboard.
 */
export function returnFocusToComposer(): void {
  if (!window.matchMedia("(pointer: fine)").matches) return;
  document.querySelector<HTMLElement>(COMPOSER_INPUT)?.focus();
}
