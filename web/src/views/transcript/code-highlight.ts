/**
 * Highlights code blocks once they are final (a finished block of a streaming reply, or a
 * whole message): the highlighter is loaded on first use, and blocks are done one per task, so
 * many of them never make one long task. A block gone from the page by then is skipped.
 */
type Highlighter = typeof import("./highlighter.ts");

let loading: Promise<Highlighter> | undefined;

export function highlightCodeIn(roots: Iterable<Node>): void {
  const blocks: HTMLElement[] = [];
  for (const root of roots) {
    if (!(root instanceof Element)) continue;
    for (const code of root.querySelectorAll<HTMLElement>("code[data-lang]")) blocks.push(code);
  }
  if (blocks.length === 0) return;
  loading ??= import("./highlighter.ts");
  loading.then(
    (highlighter) => paint(highlighter, blocks),
    () => {
      loading = undefined; // offline for a moment: the next block tries again
    },
  );
}

function paint(highlighter: Highlighter, blocks: HTMLElement[]): void {
  const code = blocks.shift();
  if (code === undefined) return;
  if (code.isConnected) highlighter.highlightInto(code, code.textContent ?? "", code.dataset.lang ?? "");
  if (blocks.length > 0) setTimeout(() => paint(highlighter, blocks), 0);
}
