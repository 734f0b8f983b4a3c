/**
 * Assistant text drawn as Markdown (markdown.ts builds the nodes). A finished text renders
 * whole, once. A streaming one keeps the nodes of its finished blocks and re-parses and redraws
 * only the tail after them (markdown-stream.ts), so a frame costs the same late in a long reply
 * as early; the completed message is drawn whole by its own view. The state layer already
 * publishes snapshots at most once per animation frame (state/frame-batch.ts), so this paints at
 * once: waiting for a frame of its own would show every delta a frame late.
 */
import { createEffect } from "solid-js";
import { highlightCodeIn } from "./code-highlight.ts";
import { drawMarkdown, renderMarkdown } from "./markdown.ts";
import { createMarkdownStream, type MarkdownStream } from "./markdown-stream.ts";

export function MarkdownView(props: { text: string; live?: boolean }) {
  let element: HTMLDivElement | undefined;
  let stream: MarkdownStream<Node[]> | undefined;
  let tail: Node[] = [];
  const paintLive = (root: HTMLDivElement, text: string) => {
    stream ??= createMarkdownStream(drawMarkdown);
    const step = stream.update(text);
    if (step.reset) root.replaceChildren();
    else for (const node of tail) node.parentNode?.removeChild(node);
    if (step.finished !== undefined) {
      root.append(...step.finished);
      highlightCodeIn(step.finished);
    }
    root.append(...step.tail);
    tail = step.tail;
  };
  createEffect(() => {
    const text = props.text;
    const live = props.live === true;
    if (element === undefined) return;
    if (!live) {
      stream = undefined;
      tail = [];
      element.replaceChildren(renderMarkdown(text));
      highlightCodeIn([element]);
      return;
    }
    paintLive(element, text);
  });
  return <div class="tx-md" data-testid="markdown" ref={element} />;
}
