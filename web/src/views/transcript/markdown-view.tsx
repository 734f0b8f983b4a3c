/**
 * Assistant text drawn as Markdown (markdown.ts builds the nodes). A finished text renders
 * once; a streaming one re-renders at most once per frame, however many deltas arrive.
 */
import { createEffect, onCleanup } from "solid-js";
import { renderMarkdown } from "./markdown.ts";

export function MarkdownView(props: { text: string; live?: boolean }) {
  let element: HTMLDivElement | undefined;
  let frame: number | undefined;
  const paint = (text: string) => element?.replaceChildren(renderMarkdown(text));
  createEffect(() => {
    const text = props.text;
    if (!props.live) {
      paint(text);
      return;
    }
    if (frame !== undefined) return;
    frame = requestAnimationFrame(() => {
      frame = undefined;
      paint(props.text);
    });
  });
  onCleanup(() => {
    if (frame !== undefined) cancelAnimationFrame(frame);
  });
  return <div class="tx-md" data-testid="markdown" ref={element} />;
}
