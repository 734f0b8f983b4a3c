/**
 * All of a long text, as text, in chunks the browser lays out only once they scroll into view
 * (`content-visibility: auto`), inside a box of bounded height. The chunks are mounted a batch
 * per frame, so even 2 MB never becomes one long task: the first screenful at once, the rest
 * while the user reads it.
 */
import { createMemo, createSignal, Index, onCleanup } from "solid-js";
import { textChunks } from "./long-text.ts";

/** Chunks mounted per frame (CHUNK_CHARS each): about 100 KB of text. */
const CHUNKS_PER_FRAME = 50;

export function FullText(props: { text: string }) {
  const chunks = createMemo(() => textChunks(props.text));
  const [mounted, setMounted] = createSignal(CHUNKS_PER_FRAME);
  let frame = 0;
  const more = () => {
    if (mounted() >= chunks().length) return;
    setMounted((n) => n + CHUNKS_PER_FRAME);
    frame = requestAnimationFrame(more);
  };
  frame = requestAnimationFrame(more);
  onCleanup(() => cancelAnimationFrame(frame));
  const shown = createMemo(() => chunks().slice(0, mounted()));
  return (
    <span
      class="tx-full-text"
      data-testid="full-text"
      data-complete={mounted() >= chunks().length ? "true" : "false"}
    >
      <Index each={shown()}>{(chunk) => <span class="tx-chunk">{chunk()}</span>}</Index>
    </span>
  );
}
