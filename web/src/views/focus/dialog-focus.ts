/** The dialog the keys answer; views/dialogs marks it with `data-active`. */
const ACTIVE_DIALOG = '.dialog[data-active="true"]';

/** Moves focus to the active dialog, out of any text field; false when none is open. */
export function focusActiveDialog(): boolean {
  const dialog = document.querySelector<HTMLElement>(ACTIVE_DIALOG);
  if (dialog === null) return false;
  dialog.focus();
  return true;
}
