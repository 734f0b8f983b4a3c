/**
 * Assistant text drawn as Markdown (markdown.ts builds the nodes). A finished text renders
 * once; a streaming one re-renders only the blocks whose source changed. The state layer already
 * publishes snapshots at most once per animation frame (state/frame-batch.ts), so this paints at
 * once: waiting for a frame of its own would show every delta a frame late.
 */
import { createEffect } from "solid-js";
import { type RenderedBlock, renderMarkdown, renderMarkdownBlocks } from "./markdown.ts";

export function MarkdownView(props: { text: string; live?: boolean }) {
  let element: HTMLDivElement | undefined;
  let blocks: RenderedBlock[] = [];
  const paintLive = (text: string) => {
    if (element === undefined) return;
    const next = renderMarkdownBlocks(text, blocks);
    let same = 0;
    while (same < next.length && same < blocks.length && next[same] === blocks[same]) same++;
    for (const old of blocks.slice(same)) for (const node of old.nodes) node.parentNode?.removeChild(node);
    for (const block of next.slice(same)) element.append(...block.nodes);
    blocks = next;
  };
  createEffect(() => {
    const text = props.text;
    if (!props.live) {
      element?.replaceChildren(renderMarkdown(text));
      return;
    }
    paintLive(text);
  });
  return <div class="tx-md" data-testid="markdown" ref={element} />;
}
