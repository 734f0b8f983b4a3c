/**
 * A scrolling list that mounts only the rows near the viewport (plus an overscan), with spacers
 * standing in for the rest, so a transcript of thousands of messages costs what one screenful
 * does. Row heights are measured once drawn (estimated before). The list stays pinned to the
 * bottom while content grows, until the user scrolls up; "Latest" pins it again.
 */
import { createMemo, createSignal, For, type JSX, onCleanup, onMount, Show } from "solid-js";
import { prefixOffsets, type Range, visibleRange } from "./virtual-window.ts";

const OVERSCAN_PX = 800;
/** How close to the end still counts as "at the bottom". */
const BOTTOM_SLACK_PX = 32;

export interface VirtualListProps<T> {
  items: readonly T[];
  key: (item: T) => string;
  /** Height assumed for a row not yet drawn. */
  estimate: number;
  children: (item: T) => JSX.Element;
  /** Drawn after the rows, always (the message being streamed). */
  footer?: JSX.Element;
  testId?: string;
}

export function VirtualList<T>(props: VirtualListProps<T>) {
  const heights = new Map<string, number>();
  const [measured, setMeasured] = createSignal(0);
  const [scrollTop, setScrollTop] = createSignal(0);
  const [viewport, setViewport] = createSignal(800);
  const [pinned, setPinned] = createSignal(true);
  let scroller: HTMLDivElement | undefined;
  let content: HTMLDivElement | undefined;
  let lastTop = 0;

  const offsets = createMemo(() => {
    measured();
    forgetGone(heights, props.items, props.key);
    return prefixOffsets(props.items.map((item) => heights.get(props.key(item)) ?? props.estimate));
  });
  const range = createMemo<Range>(
    () => visibleRange(offsets(), scrollTop(), viewport(), OVERSCAN_PX, pinned()),
    { start: 0, end: 0 },
    { equals: (a, b) => a.start === b.start && a.end === b.end },
  );
  const visible = createMemo(() => props.items.slice(range().start, range().end));
  const topSpace = () => offsets()[range().start] ?? 0;
  const bottomSpace = () => (offsets()[props.items.length] ?? 0) - (offsets()[range().end] ?? 0);

  const stick = () => {
    if (pinned() && scroller !== undefined) scroller.scrollTop = scroller.scrollHeight;
  };
  const rows = new ResizeObserver((entries) => {
    let changed = false;
    for (const entry of entries) {
      const key = entry.target instanceof HTMLElement ? entry.target.dataset.rowKey : undefined;
      const height = entry.borderBoxSize[0]?.blockSize ?? entry.contentRect.height;
      if (key !== undefined && height > 0 && heights.get(key) !== height) {
        heights.set(key, height);
        changed = true;
      }
    }
    if (changed) setMeasured((n) => n + 1);
  });
  // Any change of the content's or the viewport's size (a row measured, a delta painted, a
  // block opened, the window resized) keeps a pinned list at the bottom.
  const frame = new ResizeObserver(() => {
    if (scroller !== undefined) setViewport(scroller.clientHeight);
    stick();
  });
  onMount(() => {
    if (scroller !== undefined) frame.observe(scroller);
    if (content !== undefined) frame.observe(content);
  });
  onCleanup(() => {
    rows.disconnect();
    frame.disconnect();
  });

  const onScroll = () => {
    if (scroller === undefined) return;
    const top = scroller.scrollTop;
    const atBottom = scroller.scrollHeight - top - scroller.clientHeight <= BOTTOM_SLACK_PX;
    if (atBottom) setPinned(true);
    else if (top < lastTop - 1) setPinned(false);
    lastTop = top;
    setScrollTop(top);
  };
  // Intent to read back, even before the scroll position moves (if there is anything above).
  const onWheel = (event: WheelEvent) => {
    if (event.deltaY < 0 && (scroller?.scrollTop ?? 0) > 0) setPinned(false);
  };
  const jumpToLatest = () => {
    setPinned(true);
    stick();
  };

  return (
    <div class="tx-scroll-frame">
      <div class="tx-scroll" ref={scroller} onScroll={onScroll} onWheel={onWheel} data-testid={props.testId}>
        <div class="tx-content" ref={content}>
          <div class="tx-spacer" style={{ height: `${topSpace()}px` }} />
          <For each={visible()}>
            {(item) => (
              <div
                class="tx-row"
                data-row-key={props.key(item)}
                ref={(element) => {
                  rows.observe(element);
                  onCleanup(() => rows.unobserve(element));
                }}
              >
                {props.children(item)}
              </div>
            )}
          </For>
          <div class="tx-spacer" style={{ height: `${bottomSpace()}px` }} />
          {props.footer}
        </div>
      </div>
      <Show when={!pinned()}>
        <button type="button" class="tx-jump" data-testid="jump-to-latest" onClick={jumpToLatest}>
          ↓ Latest
        </button>
      </Show>
    </div>
  );
}

/** Heights of rows that left the list (compacted away) are dropped once they outnumber the rest. */
function forgetGone<T>(heights: Map<string, number>, items: readonly T[], key: (item: T) => string): void {
  if (heights.size <= items.length * 2 + 64) return;
  const keep = new Set(items.map(key));
  for (const k of heights.keys()) if (!keep.has(k)) heights.delete(k);
}
