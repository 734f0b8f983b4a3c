/**
 * Puts text on the clipboard: the Clipboard API where the page may use it (https, localhost),
 * else a selected off-screen textarea and the copy command (a daemon reached over plain http).
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (window.isSecureContext && navigator.clipboard !== undefined) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no focus, no permission): try the old way.
  }
  const buffer = document.createElement("textarea");
  buffer.className = "copy-buffer";
  buffer.value = text;
  buffer.setAttribute("readonly", "");
  document.body.append(buffer);
  buffer.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    buffer.remove();
  }
}
