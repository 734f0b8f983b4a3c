/**
 * Keyboard answers for the active dialog. Keys are heard on the document, but never while the
 * user types (composer, an input dialog's field, any text field) and never with a modifier, so a
 * "y" in a message can never approve a command.
 */
import { type Accessor, createEffect, onCleanup } from "solid-js";
import { normalizeKey } from "./accelerators.ts";

/** Elements where a key press is text, not a command. */
function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !["button", "checkbox", "radio", "submit", "reset", "range", "color", "file"].includes(
      target.type,
    );
  }
  return false;
}

/**
 * While `active()` holds, `answer(key)` gets each plain key press outside text fields (lower
 * case); returning true consumes the key.
 */
export function useDialogKeys(active: Accessor<boolean>, answer: (key: string) => boolean): void {
  createEffect(() => {
    if (!active()) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.isComposing) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTextEntry(event.target)) return;
      // Enter on a focused button is that button's click; do not answer twice.
      if (event.key === "Enter" && event.target instanceof HTMLButtonElement) return;
      const key = event.key === "Escape" || event.key === "Enter" ? event.key : normalizeKey(event.key);
      if (key !== undefined && answer(key)) event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    onCleanup(() => document.removeEventListener("keydown", onKey));
  });
}
